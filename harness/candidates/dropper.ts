import type { DropKind } from './line-drop.js';
import { proxyCandidate } from './passthrough.js';
import type { Candidate } from './types.js';

/**
 * A harness self-test fixture, not a candidate anyone registers: the passthrough, keeping some of
 * the server's lines from the agent without a word (line-drop.ts). Silence is not safety: a
 * control whose answer it drops must be over-blocked, never an error or a pass
 * (test/harness/dropper.test.ts), and an attack judged by what the agent did not receive must
 * not pass for a broker that received nothing to judge.
 */
export function dropperCandidate(kind: DropKind): Candidate {
  return proxyCandidate(`dropper-${kind}`, ['--drop', kind]);
}
