import type { Scenario } from '../scenario/types.js';

/** One of `count` parts of a run, numbered from 1. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) throw new Error(`--shard takes i/n with 1 <= i <= n, got ${JSON.stringify(text)}`);
  return { index, count };
}

/**
 * The selected scenarios grouped so that an attack and its control are never apart: an attack is
 * scored with its control's outcome in the same run. Each group is keyed by its first member.
 */
function groups(scenarios: readonly Scenario[]): Scenario[][] {
  const ids = new Set(scenarios.map((s) => s.id));
  const byControl = new Map<string, Scenario[]>();
  for (const scenario of scenarios) {
    const root = scenario.control !== undefined && ids.has(scenario.control) ? scenario.control : scenario.id;
    byControl.set(root, [...(byControl.get(root) ?? []), scenario]);
  }
  return [...byControl.values()];
}

/**
 * The scenarios of one shard: groups dealt, largest first, to the shard with the fewest scenarios
 * so far (the lowest index on a tie). The split depends only on the selection, so every shard of
 * the same selection computes the same one; scenarios keep their catalogue order within a shard.
 */
export function selectShard(scenarios: readonly Scenario[], shard: Shard): Scenario[] {
  const order = groups(scenarios).sort((a, b) => b.length - a.length || (a[0]!.id < b[0]!.id ? -1 : 1));
  const load = new Array<number>(shard.count).fill(0);
  const mine = new Set<string>();
  for (const group of order) {
    const target = load.indexOf(Math.min(...load));
    load[target]! += group.length;
    if (target === shard.index - 1) for (const scenario of group) mine.add(scenario.id);
  }
  return scenarios.filter((s) => mine.has(s.id));
}
