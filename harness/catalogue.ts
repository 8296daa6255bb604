import { loadRequirements } from './requirements.js';
import { loadScenarios, matchesGlob } from './scenario/load.js';
import type { Scenario } from './scenario/types.js';
import { catalogue } from '../servers/catalogue.js';

/** The scenarios on disk, checked against the requirements and the hostile-server catalogue. */
export function loadCatalogue(filter?: string): Scenario[] {
  const requirementIds = new Set(loadRequirements().map((r) => r.id));
  const serverIds = new Set(catalogue.map((entry) => entry.id));
  const scenarios = loadScenarios({ requirementIds, serverIds });
  return filter ? scenarios.filter((s) => matchesGlob(s.id, filter)) : scenarios;
}
