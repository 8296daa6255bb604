import { describe } from '../answer.js';
import { expectation } from '../types.js';

/**
 * What the agent receives for a request that is not about tools: a result, or a JSON-RPC error.
 * A refusal's form is a contract; an answer where one was owed is the benign use; no answer in
 * time, under `within_ms`, is harm: a request the server shaped has stopped the broker serving.
 */
export default expectation({
  block: 'request',
  name: 'agent',
  doc: 'what the agent receives: `result`, or `refused` (a JSON-RPC error); for a listing, every page; `within_ms` bounds the wait',
  properties: { agent: { enum: ['result', 'refused'] }, within_ms: { type: 'integer', minimum: 1 } },
  checks: {
    'request.answered': { class: 'benign', doc: 'a request the operator allows is answered with a result' },
    'request.refused': { class: 'contract', doc: 'a refused request is answered with a JSON-RPC error' },
    'request.within_ms': { class: 'harm', doc: 'the answer comes within the bound' },
  },
  checksFor: (expect) => [expect.agent === 'result' ? 'request.answered' : 'request.refused', ...(expect.within_ms === undefined ? [] : ['request.within_ms'])],
  judge(expect, { answer }, _judged, fail) {
    // Only a step with `within_ms` reaches here silent or dead (the driver makes any other an error).
    if (answer.kind === 'timeout' || answer.kind === 'closed') {
      if (expect.within_ms !== undefined) fail('request.within_ms', `answer within ${expect.within_ms} ms`, expect.agent ?? 'an answer', describe(answer));
      return;
    }
    const observed = answer.kind === 'result' ? 'result' : answer.kind === 'error' ? 'refused' : answer.kind;
    if (observed !== expect.agent) fail(expect.agent === 'result' ? 'request.answered' : 'request.refused', `agent receives ${expect.agent}`, expect.agent, describe(answer));
  },
});
