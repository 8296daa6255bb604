import { describe } from '../answer.js';
import { expectation } from '../types.js';

/**
 * What the agent receives for a request that is not about tools: a result, or a JSON-RPC error.
 * A refusal's form is a contract; an answer where one was owed is the benign use.
 */
export default expectation({
  block: 'request',
  name: 'agent',
  doc: 'what the agent receives: `result`, or `refused` (a JSON-RPC error); for a listing, every page',
  properties: { agent: { enum: ['result', 'refused'] } },
  checks: {
    'request.answered': { class: 'benign', doc: 'a request the operator allows is answered with a result' },
    'request.refused': { class: 'contract', doc: 'a refused request is answered with a JSON-RPC error' },
  },
  checksFor: (expect) => [expect.agent === 'result' ? 'request.answered' : 'request.refused'],
  judge(expect, { answer }, _judged, fail) {
    const observed = answer.kind === 'result' ? 'result' : answer.kind === 'error' ? 'refused' : answer.kind;
    if (observed !== expect.agent) fail(expect.agent === 'result' ? 'request.answered' : 'request.refused', `agent receives ${expect.agent}`, expect.agent, describe(answer));
  },
});
