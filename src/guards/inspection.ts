// Inspection at the points where text crosses the broker (docs/result-path.md), other than
// results (guards/result.ts): the arguments an agent sends, and the descriptors the agent is
// shown. Each is bounded first, then normalised, then searched; a finding refuses the whole.

import { plain } from '../json/tree.js';
import { inspectValue } from '../inspect/inspect.js';
import { normalise } from '../inspect/normalise.js';
import { refusal } from '../session/refusal.js';
import type { CallGuard, PresentationGuard, ToolGuard } from './types.js';
import type { JsonValue } from '../types.js';

export const inspectArguments: CallGuard = {
  name: 'inspect-arguments',
  // Only secrets: an agent may legitimately pass on text that reads like an instruction, while a
  // secret in arguments is on its way out of the workspace. Nothing has run yet.
  check({ args }) {
    const inspected = inspectValue(args, ['secret']);
    if (inspected.ok) return { kind: 'pass' };
    return { kind: 'refuse', refusal: refusal('argument_rejected', `the arguments are refused before dispatch: ${inspected.problem}.`, {}) };
  },
};

const INSPECT_DESCRIPTORS = 'inspect-descriptors';

/**
 * The presentation half of inspect-descriptors: the description is shown normalised, so text
 * whose only change is removed invisible characters reaches the agent without them. Schema
 * strings are not rewritten: a changed `pattern` or `enum` value would change what is valid.
 */
export const normaliseDescription: PresentationGuard = {
  name: INSPECT_DESCRIPTORS,
  present: (shown) => (shown.description === undefined ? shown : { ...shown, description: normalise(shown.description) }),
};

export const inspectDescriptors: ToolGuard = {
  name: INSPECT_DESCRIPTORS,
  // What the agent would be shown: an operator's description replaces the server's, so the
  // replaced text never reaches the model and is not judged here (description-pin judges it).
  check({ offered, shown }) {
    const descriptor: JsonValue = plain({ name: offered, ...(shown.description === undefined ? {} : { description: shown.description }) });
    const inspected = inspectValue({ kind: 'array', items: [descriptor, shown.inputSchema] }, ['secret', 'injection'], shown.inputSchema, [
      offered,
      shown.description ?? '',
    ]);
    return inspected.ok ? { kind: 'pass' } : { kind: 'refuse', reason: `its descriptor is withheld: ${inspected.problem}` };
  },
};
