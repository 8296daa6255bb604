// Several servers behind one broker: each server's tools are decided on their own, against its
// own manifest and rules, exactly as one server's are (load.ts); the fleet guards then decide on
// all of them together, in order. What one server's Load refused stays refused.

import type { Guards } from '../guards/registry.js';
import type { LoadOutcome } from './load.js';
import type { Refusal } from '../types.js';
import { judgeTogether } from './together.js';

export function decideFleet(outcomes: readonly LoadOutcome[], guards: Pick<Guards, 'fleet'>): LoadOutcome {
  const registered = outcomes.flatMap((outcome) => outcome.registered);
  const refused: Refusal[] = outcomes.flatMap((outcome) => outcome.refused);
  // One server has no other to be told apart from.
  if (outcomes.length < 2) return { registered, refused };
  return { registered: judgeTogether(guards.fleet, registered, refused), refused };
}
