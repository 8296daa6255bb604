import { callOutcome, describe } from '../answer.js';
import { expectation } from '../types.js';

/**
 * What the agent receives, and when. A refusal's form is a contract; an answer where one was
 * owed is the benign use; an answer that comes too late (or never, under `within_ms`) is harm: a
 * hung call holds the agent. `none` is a call still in flight, judged from the ledger: the server
 * received it while the agent had no answer, so a slow broker cannot pass it by being slow.
 */
export default expectation({
  block: 'call',
  name: 'agent',
  doc: 'what the agent receives: `result`, `refused` (a tool error or a protocol error), `tool-error`, `protocol-error`, or `none` (still in flight once the server has the call); `within_ms` bounds the wait',
  properties: {
    agent: { enum: ['result', 'refused', 'tool-error', 'protocol-error', 'none'] },
    within_ms: { type: 'integer', minimum: 1 },
  },
  required: ['agent'],
  checks: {
    'call.answered': { class: 'benign', doc: 'a call the operator allows is answered with a result' },
    'call.refused': { class: 'contract', doc: 'a refused call is answered with the kind of error the scenario names' },
    'call.within_ms': { class: 'harm', doc: 'the answer comes within the bound' },
    'call.in_flight': { class: 'benign', doc: 'the call reached the server and is unanswered when the scenario acts on it' },
  },
  checksFor: (expect) =>
    expect.agent === 'none' ? ['call.in_flight'] : [expect.agent === 'result' ? 'call.answered' : 'call.refused', ...(expect.within_ms === undefined ? [] : ['call.within_ms'])],
  judge(expect, facts, _judged, fail) {
    const { answer } = facts;
    if (expect.agent === 'none') {
      const flight = facts.inFlight;
      if (!flight?.reached) fail('call.in_flight', 'call reaches the server', 'the server receives the call', 'it never did');
      else if (flight.answeredFirst) fail('call.in_flight', 'call in flight', 'no answer while the server works', describe(answer));
      return;
    }
    // Only a step with `within_ms` is judged on silence or a dead channel (the driver makes any
    // other an error, judging an unfinished answer for its harm alone): the hostile server kept
    // the agent from an answer.
    if (answer.kind === 'timeout' || answer.kind === 'closed') {
      if (expect.within_ms !== undefined) fail('call.within_ms', `answer within ${expect.within_ms} ms`, expect.agent, describe(answer));
      return;
    }
    const observed = callOutcome(answer);
    const met = expect.agent === 'refused' ? observed === 'tool-error' || observed === 'protocol-error' : observed === expect.agent;
    if (met) return;
    const shown = answer.kind === 'malformed' ? answer.why : 'raw' in answer ? answer.raw.slice(0, 300) : describe(answer);
    fail(expect.agent === 'result' ? 'call.answered' : 'call.refused', `agent receives ${expect.agent}`, expect.agent, `${observed}: ${shown}`);
  },
});
