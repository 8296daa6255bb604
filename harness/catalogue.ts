import { loadRequirements } from './requirements.js';
import { loadScenarios, matchesGlob } from './scenario/load.js';
import type { Scenario } from './scenario/types.js';
import { catalogue } from '../servers/catalogue.js';

/**
 * The scenarios on disk, checked against the requirements and the hostile-server catalogue. A
 * filter selects by id, and every attack selected brings its control: an attack is only scored
 * with its control's outcome in the same run.
 */
export function loadCatalogue(filter?: string): Scenario[] {
  const requirementIds = new Set(loadRequirements().map((r) => r.id));
  const serverIds = new Set(catalogue.map((entry) => entry.id));
  const scenarios = loadScenarios({ requirementIds, serverIds });
  if (filter === undefined) return scenarios;
  const chosen = new Set(scenarios.filter((s) => matchesGlob(s.id, filter)).map((s) => s.id));
  for (const scenario of scenarios) if (chosen.has(scenario.id) && scenario.control !== undefined) chosen.add(scenario.control);
  return scenarios.filter((s) => chosen.has(s.id));
}
