import type { Fail } from '../types.js';

/** A bound per method: `{"sampling/createMessage": 1}`. */
export const PER_METHOD = { type: 'object', minProperties: 1, additionalProperties: { type: 'integer', minimum: 0 } };

/**
 * Judges how many messages of each method the agent received against `max` (a check of harm:
 * more got through than allowed) and `min` (a benign one: what is allowed did not arrive).
 */
export function judgeMethodCounts(
  counts: ReadonlyMap<string, number>,
  bounds: { max?: Record<string, number>; min?: Record<string, number> },
  checks: { max: string; min: string },
  fail: Fail,
): void {
  for (const [method, max] of Object.entries(bounds.max ?? {})) {
    const seen = counts.get(method) ?? 0;
    if (seen > max) fail(checks.max, `agent receives ${method}`, `at most ${max}`, seen);
  }
  for (const [method, min] of Object.entries(bounds.min ?? {})) {
    const seen = counts.get(method) ?? 0;
    if (seen < min) fail(checks.min, `agent receives ${method}`, `at least ${min}`, seen);
  }
}
