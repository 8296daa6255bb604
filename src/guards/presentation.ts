// What the agent is shown. The server's annotations are untrusted (the MCP spec says a client
// must not base decisions on them), and its description is text the model reads as instructions,
// so the operator's decisions replace both. The outbound stage then inspects and caps the result.

import { plain } from '../json/tree.js';
import type { PresentationGuard } from './types.js';
import type { Effect, JsonObject } from '../types.js';

const DERIVED_ANNOTATIONS: Readonly<Record<Effect, JsonObject>> = {
  read_only: annotations({ readOnlyHint: true, destructiveHint: false }),
  local_change: annotations({ readOnlyHint: false, destructiveHint: false, openWorldHint: false }),
  remote_change: annotations({ readOnlyHint: false, destructiveHint: false, openWorldHint: true }),
  destructive: annotations({ readOnlyHint: false, destructiveHint: true }),
};

function annotations(hints: Readonly<Record<string, boolean>>): JsonObject {
  const value = plain(hints);
  if (value.kind !== 'object') throw new TypeError('annotations must be an object');
  return value;
}

export const operatorAnnotations: PresentationGuard = {
  name: 'operator-annotations',
  // A tool with no effect (classified disabled) gets no annotations rather than the server's.
  present: (shown, effect) => ({ ...shown, annotations: effect === undefined ? undefined : DERIVED_ANNOTATIONS[effect] }),
};

export const operatorDescription: PresentationGuard = {
  name: 'operator-description',
  present: (shown, _effect, rule) =>
    rule?.description === undefined ? shown : { ...shown, description: rule.description },
};
