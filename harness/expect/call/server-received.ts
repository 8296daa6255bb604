import { expectation } from '../types.js';
import { receivedBy } from './received.js';

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
    const received = receivedBy(facts, judged).length;
    if (received === expect.server_received) return;
    const check = received > expect.server_received! ? 'call.server_received' : 'call.server_reached';
    fail(check, `server receives ${facts.serverTool}`, `${expect.server_received} tools/call`, `${received} tools/call`);
  },
});
