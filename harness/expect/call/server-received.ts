import { expectation, type Fail } from '../types.js';
import { receivedBy } from './received.js';

/**
 * More requests than the step allows is harm (`over`); fewer is the benign use broken (`under`):
 * shared by every step that counts what reached the server.
 */
export function judgeReceived(checks: { over: string; under: string }, expected: number, received: number, what: string, fail: Fail): void {
  if (received === expected) return;
  fail(received > expected ? checks.over : checks.under, `server receives ${what}`, `${expected} ${what}`, `${received} ${what}`);
}

/**
 * The ledger's count of what reached the server: the plainest evidence of a call held or let
 * through. More than the step allows is harm; fewer is the benign use broken (a call the
 * operator allows never arrived).
 */
export default expectation({
  block: 'call',
  name: 'server_received',
  doc: 'how many `tools/call` requests for this tool the server received because of this step (read from the ledger)',
  properties: { server_received: { type: 'integer', minimum: 0 } },
  checks: {
    'call.server_received': { class: 'harm', doc: 'the server received no more calls than the step allows' },
    'call.server_reached': { class: 'benign', doc: 'the calls the operator allows reached the server' },
  },
  checksFor: (expect) => (expect.server_received === 0 ? ['call.server_received'] : ['call.server_received', 'call.server_reached']),
  judge(expect, facts, judged, fail) {
    judgeReceived({ over: 'call.server_received', under: 'call.server_reached' }, expect.server_received!, receivedBy(facts, judged).length, `tools/call ${facts.serverTool}`, fail);
  },
});
