import { proxyCandidate } from './passthrough.js';
import type { Candidate } from './types.js';

/**
 * A harness self-test fixture, not a candidate anyone registers: the passthrough whose front door
 * requires a key of its own (drawn for each start and provided to the harness as its credential,
 * in a header of its own, as some bridges do) and is otherwise as naive as the passthrough's: no
 * Origin or Host check, counted session ids, any session served. A credential is one protection,
 * not all of them: it must hold the uncredentialed-client attack and be exposed on the foreign
 * Origin and Host ones, whose page holds the credential (test/harness/keyed-front-door.test.ts).
 */
export function keyedFrontDoorCandidate(): Candidate {
  return proxyCandidate('keyed-front-door', [], { keyedFrontDoor: true });
}
