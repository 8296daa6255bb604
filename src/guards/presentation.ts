// What the agent is shown. The server's annotations are untrusted (the MCP spec says a client
// must not base decisions on them), and its description is text the model reads as instructions,
// so the operator's decisions replace both. The outbound stage then inspects and caps the result.

import { plain } from '../json/tree.js';
import type { PresentationGuard } from './types.js';
import type { Effect, JsonObject, Rule } from '../types.js';

const DERIVED_HINTS: Readonly<Record<Effect, Readonly<Record<string, boolean>>>> = {
  read_only: { readOnlyHint: true, destructiveHint: false },
  local_change: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  remote_change: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  destructive: { readOnlyHint: false, destructiveHint: true },
};

/**
 * The class's hints, with those the operator's rule states beside them (CLS-3): whether a call
 * may be repeated to the same effect, and whether it reaches beyond the operator's machine (the
 * configuration refuses an `open_world` that contradicts a change class). Never the server's.
 */
function operatorHints(effect: Effect, rule: Rule | undefined): JsonObject {
  const value = plain({
    ...DERIVED_HINTS[effect],
    ...(rule?.idempotent === undefined ? {} : { idempotentHint: rule.idempotent }),
    ...(rule?.openWorld === undefined ? {} : { openWorldHint: rule.openWorld }),
  });
  if (value.kind !== 'object') throw new TypeError('annotations must be an object');
  return value;
}

export const operatorAnnotations: PresentationGuard = {
  name: 'operator-annotations',
  // A tool with no effect (classified disabled) gets no annotations rather than the server's.
  present: (shown, effect, rule) => ({ ...shown, annotations: effect === undefined ? undefined : operatorHints(effect, rule) }),
};

export const operatorDescription: PresentationGuard = {
  name: 'operator-description',
  present: (shown, _effect, rule) =>
    rule?.description === undefined ? shown : { ...shown, description: rule.description },
};
