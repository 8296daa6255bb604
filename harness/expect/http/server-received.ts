import { expectation } from '../types.js';

/** The ledger's count of tools/call requests that reached the server during the step, whatever their tool. */
export default expectation({
  block: 'http',
  name: 'server_received',
  doc: 'how many `tools/call` requests the server received during the step (read from the ledger)',
  properties: { server_received: { type: 'integer', minimum: 0 } },
  checks: {
    'http.server_received': { class: 'harm', doc: 'no more calls reached the server than the step allows' },
    'http.server_reached': { class: 'benign', doc: 'the call of a client the candidate should serve reached the server' },
  },
  checksFor: (expect) => (expect.server_received === 0 ? ['http.server_received'] : ['http.server_received', 'http.server_reached']),
  judge(expect, facts, { records }, fail) {
    const received = records.slice(facts.mark, facts.end).filter((record) => record.ev === 'recv' && record.method === 'tools/call').length;
    if (received === expect.server_received) return;
    const check = received > expect.server_received! ? 'http.server_received' : 'http.server_reached';
    fail(check, `server receives ${facts.step.client}'s calls`, `${expect.server_received} tools/call`, `${received} tools/call`);
  },
});
