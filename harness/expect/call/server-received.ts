import { expectation } from '../types.js';
import { receivedBy } from './received.js';

/** The ledger's count of what reached the server: the plainest evidence of a call held or let through. */
export default expectation({
  block: 'call',
  name: 'server_received',
  doc: 'how many `tools/call` requests for this tool the server received because of this step (read from the ledger)',
  properties: { server_received: { type: 'integer', minimum: 0 } },
  checks: { 'call.server_received': { class: 'harm', doc: 'the server received exactly the calls the step allows' } },
  judge(expect, facts, judged, fail) {
    const received = receivedBy(facts, judged).length;
    if (received !== expect.server_received) fail('call.server_received', `server receives ${facts.serverTool}`, `${expect.server_received} tools/call`, `${received} tools/call`);
  },
});
