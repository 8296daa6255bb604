import { loadCatalogue } from '../catalogue.js';
import { findProfile, loadProfiles } from '../profiles.js';
import type { Scenario } from '../scenario/types.js';
import { selectShard, type Shard } from './shard.js';

export interface Selection {
  filter?: string;
  profile?: string;
  shard?: Shard;
}

/**
 * The scenarios a run judges: those a filter or a profile selects (each attack with its control),
 * then this shard's part of them. A profile's scenarios that left the catalogue are not run; its
 * score counts them as missing.
 */
export function selectScenarios(selection: Selection): Scenario[] {
  if (selection.filter !== undefined && selection.profile !== undefined) throw new Error('--filter and --profile each select the scenarios; give one');
  // Loaded whatever the selection, so that a profile edited out of its digest stops the run before it starts.
  const profiles = loadProfiles();
  let scenarios = loadCatalogue(selection.filter);
  if (selection.profile !== undefined) {
    const ids = new Set(findProfile(profiles, selection.profile).scenarios);
    for (const scenario of scenarios) if (ids.has(scenario.id) && scenario.control !== undefined) ids.add(scenario.control);
    scenarios = scenarios.filter((s) => ids.has(s.id));
  }
  return selection.shard === undefined ? scenarios : selectShard(scenarios, selection.shard);
}
