// The hint rule. A server's annotations can dispute the operator's classification, never relax
// it: a server calling its own tool read-only is what a hostile server would say. Absent
// annotations contradict nothing, because their defaults are the permissive values.

import { member } from '../json/tree.js';
import type { Effect, JsonObject } from '../types.js';

function saysTrue(annotations: JsonObject, hint: string): boolean {
  const value = member(annotations, hint);
  return value?.kind === 'bool' && value.value;
}

/** What the server claims that contradicts `effect`, as a phrase, or null when nothing does. */
export function hintContradiction(effect: Effect, annotations: JsonObject | undefined): string | null {
  if (annotations === undefined) return null;
  const readOnly = saysTrue(annotations, 'readOnlyHint');
  if (effect === 'read_only' && !readOnly) return 'do not say readOnlyHint: true';
  if (effect !== 'destructive' && !readOnly && saysTrue(annotations, 'destructiveHint')) {
    return 'say destructiveHint: true';
  }
  return null;
}
