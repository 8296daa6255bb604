import { requestsOf } from '../../observe/ledger.js';
import { judgeReceived } from '../call/server-received.js';
import { expectation } from '../types.js';

/** The ledger's count of the step's method reaching the server: a request held or let through. */
export default expectation({
  block: 'request',
  name: 'server_received',
  doc: "how many requests of the step's method the server received during this step (read from the ledger)",
  properties: { server_received: { type: 'integer', minimum: 0 } },
  checks: {
    'request.server_received': { class: 'harm', doc: 'the server received no more of these requests than the step allows' },
    'request.server_reached': { class: 'benign', doc: 'the requests the operator allows reached the server' },
  },
  checksFor: (expect) => (expect.server_received === 0 ? ['request.server_received'] : ['request.server_received', 'request.server_reached']),
  judge(expect, facts, { records }, fail) {
    const received = requestsOf(records.slice(facts.mark, facts.end), facts.step.method).length;
    judgeReceived({ over: 'request.server_received', under: 'request.server_reached' }, expect.server_received!, received, facts.step.method, fail);
  },
});
