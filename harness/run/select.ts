import { loadCatalogue } from '../catalogue.js';
import { findProfile, loadProfiles } from '../profiles.js';
import { BASE_REVISION, type Revision } from '../agent/revisions.js';
import type { Scenario } from '../scenario/types.js';
import { selectShard, type Shard } from './shard.js';

export interface Selection {
  filter?: string;
  profile?: string;
  shard?: Shard;
  /** Only the cases of this MCP revision: an attack's control is of the same revision, so pairs stay whole. */
  revision?: Revision;
}

/**
 * The scenarios a run judges: those a filter or a profile selects (each attack with its control),
 * of the revision asked for, then this shard's part of them. A profile's scenarios that left the catalogue are not run; its
 * score counts them as missing.
 */
export function selectScenarios(selection: Selection): Scenario[] {
  if (selection.filter !== undefined && selection.profile !== undefined) throw new Error('--filter and --profile each select the scenarios; give one');
  // Loaded whatever the selection, so that a profile edited out of its digest stops the run before it starts.
  const profiles = loadProfiles();
  let scenarios = loadCatalogue(selection.filter);
  if (selection.revision !== undefined) {
    // With a revision asked for, a filter may name a scenario by its file's id: `--filter
    // pin.description-reworded --revision 2026-07-28` means that file's 2026-07-28 case.
    const named = selection.filter === undefined || selection.revision === BASE_REVISION ? [] : loadCatalogue(`${selection.filter}.${selection.revision}`);
    const ids = new Set(scenarios.map((s) => s.id));
    scenarios = [...scenarios, ...named.filter((s) => !ids.has(s.id))].filter((s) => (s.revision ?? BASE_REVISION) === selection.revision);
  }
  if (selection.profile !== undefined) {
    const ids = new Set(findProfile(profiles, selection.profile).scenarios);
    for (const scenario of scenarios) if (ids.has(scenario.id) && scenario.control !== undefined) ids.add(scenario.control);
    scenarios = scenarios.filter((s) => ids.has(s.id));
  }
  return selection.shard === undefined ? scenarios : selectShard(scenarios, selection.shard);
}
