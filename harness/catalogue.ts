import { loadRequirements } from './requirements.js';
import { catalogueKey, defaultCacheDir, readCatalogue, writeCatalogue } from './scenario/cache.js';
import { loadScenarios, matchesGlob, scenarioFiles } from './scenario/load.js';
import type { Scenario } from './scenario/types.js';
import { catalogue } from '../servers/catalogue.js';

/**
 * The scenarios on disk, checked against the requirements and the hostile-server catalogue. A
 * filter selects by id, and every attack selected brings its control: an attack is only scored
 * with its control's outcome in the same run.
 */
export function loadCatalogue(filter?: string, cacheDir: string = defaultCacheDir): Scenario[] {
  const scenarios = checkedScenarios(cacheDir);
  if (filter === undefined) return scenarios;
  const chosen = new Set(scenarios.filter((s) => matchesGlob(s.id, filter)).map((s) => s.id));
  for (const scenario of scenarios) if (chosen.has(scenario.id) && scenario.control !== undefined) chosen.add(scenario.control);
  return scenarios.filter((s) => chosen.has(s.id));
}

/**
 * Every scenario, checked: as the last full load with the same inputs returned it
 * (scenario/cache.ts), or loaded in full and kept. Kept only when the inputs read the same after
 * the load as before it, so that an edit made meanwhile is never kept under the older key.
 */
function checkedScenarios(cacheDir: string): Scenario[] {
  const requirementIds = new Set(loadRequirements().map((r) => r.id));
  const serverIds = new Set(catalogue.map((entry) => entry.id));
  const key = () => catalogueKey({ files: [...scenarioFiles()], requirementIds, serverIds });
  const before = key();
  const kept = before === undefined ? undefined : readCatalogue(before, cacheDir);
  if (kept !== undefined) return kept;
  const scenarios = loadScenarios({ requirementIds, serverIds });
  if (before !== undefined && key() === before) writeCatalogue(before, scenarios, cacheDir);
  return scenarios;
}
