import type { Scenario } from '../scenario/types.js';

/**
 * The expectation keys whose verdict is a measure of the candidate's time or memory. A scenario
 * that has one runs with no other scenario beside it (runPool's `alone`): a neighbour's load
 * must not decide whether a broker answered in time or stayed within its memory, and such a
 * scenario (a 64 MiB answer, a flood) is itself the load that would starve a neighbour.
 */
const MEASURES = new Set(['memory_growth_max_mib', 'within_ms']);

function mentionsMeasure(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(mentionsMeasure);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => MEASURES.has(key) || mentionsMeasure(inner));
}

/** Whether the scenario's verdict measures time or memory anywhere in its steps or its end. */
export const runsAlone = (scenario: Scenario): boolean => mentionsMeasure(scenario.steps) || mentionsMeasure(scenario.expect);
