// Inspection at the points where the agent's words cross the broker, and where Load acts on what
// the outbound stage (inspect/stage.ts) found in a descriptor: the arguments an agent sends are
// bounded, normalised and searched here; a descriptor with a finding is refused.

import { inspectValue } from '../inspect/inspect.js';
import { refusal } from '../session/refusal.js';
import type { CallGuard, ToolGuard } from './types.js';

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

export const inspectDescriptors: ToolGuard = {
  name: 'inspect-descriptors',
  // The outbound stage judged what the agent would be shown (an operator's description replaces
  // the server's, so the replaced text never reaches the model and is not judged: description-pin
  // judges it); this guard refuses the tool it withheld, at its place in the order.
  check: ({ withheld }) => (withheld === undefined ? { kind: 'pass' } : { kind: 'refuse', reason: `its descriptor is withheld: ${withheld}` }),
};
