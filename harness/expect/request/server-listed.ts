import { requestsOf } from '../../observe/ledger.js';
import { expectation } from '../types.js';

/**
 * A listing's absences mean something only if the session's server was asked for that listing:
 * the ledger shows it received the step's method since the session's start (at Load, or during
 * the step). Without it, a broker that never asked the server would offer nothing and pass.
 */
export default expectation({
  block: 'request',
  name: 'server_listed',
  always: true,
  doc: "for a listing method: the server received that method between the session's start and the end of this step",
  properties: {},
  checks: { 'request.server_listed': { class: 'benign', doc: "the listing comes from the session's server" } },
  judge(_expect, facts, { records }, fail) {
    if (facts.items === undefined) return;
    if (requestsOf(records.slice(facts.sessionMark, facts.end), facts.step.method).length === 0) {
      fail('request.server_listed', 'server listed', `a ${facts.step.method} the server received in this session`, 'none in the ledger');
    }
  },
});
