import { connections, launches } from '../../observe/ledger.js';
import { describe } from '../answer.js';
import { expectation, type Fail, type StartFacts } from '../types.js';

/**
 * A refusal to serve that reached nothing: the candidate must stop within the step timeout, and
 * the ledger must show no launch (`refused-before-launch`) or no connection over the whole
 * scenario, a pin's dial included (`refused-before-connect`). That cannot show the candidate
 * looked at anything, so the reason its adapter gives is checked where the scenario names one,
 * and the attack's control starts the same candidate on the same files less the defect.
 */
function refusedBeforeReaching(contact: 'launch' | 'connect', facts: StartFacts, made: number, fail: Fail): void {
  if (facts.exit === null) fail('start.stops', `refused before it could ${contact}`, 'the candidate stops', 'it did not stop within the step timeout');
  if (made > 0) fail(`start.no_${contact}`, `refused before it could ${contact}`, 'no contact with the server', `${made} ${contact} record(s) in the ledger`);
}

export default expectation({
  block: 'start',
  name: 'outcome',
  doc:
    '`ready`; `signing-in` (a server that asks for an OAuth sign-in: whatever the candidate does with initialize, an answer, a refusal or silence while it waits for the user, is not judged; the scenario judges what it opened); `refused` (after the server received `after`, default `tools/list`, explained by an initialize error or the adapter\'s `startRefusal`); `refused-before-launch` or `refused-before-connect` (no launch, or no connection at all, and the candidate stops); `within_ms` bounds the decision; `reason_includes` are strings the adapter\'s refusal reason must contain',
  properties: {
    outcome: { enum: ['ready', 'refused', 'refused-before-launch', 'refused-before-connect', 'signing-in'] },
    within_ms: { type: 'integer', minimum: 1 },
    after: { enum: ['initialize', 'tools/list'] },
    reason_includes: { $ref: '#/$defs/fragments' },
  },
  required: ['outcome'],
  checks: {
    'start.ready': { class: 'benign', doc: 'the candidate serves a configuration it should accept' },
    'start.within_ms': { class: 'harm', doc: 'the start is decided within the bound, not held open by a silent server' },
    'start.refused': { class: 'harm', doc: 'the candidate does not serve a session the operator configuration forbids' },
    'start.contact': { class: 'benign', doc: 'the candidate reached the server before refusing, so it refused on what it saw' },
    'start.refusal_explained': { class: 'contract', doc: 'a refusal to serve is an initialize error, or a reason the adapter reports' },
    'start.stops': { class: 'contract', doc: 'a candidate refusing to serve stops' },
    'start.no_launch': { class: 'harm', doc: 'no server was started from files the candidate cannot trust' },
    'start.no_connect': { class: 'harm', doc: 'no connection was opened to an address the candidate must not reach' },
    'start.reason': { class: 'contract', doc: 'the reason names what was refused' },
  },
  checksFor(expect) {
    const timed = expect.within_ms === undefined ? [] : ['start.within_ms'];
    const reason = expect.reason_includes === undefined ? [] : ['start.reason'];
    switch (expect.outcome) {
      case 'ready':
        return ['start.ready', ...timed];
      case 'signing-in':
        return timed;
      case 'refused':
        return ['start.refused', 'start.contact', 'start.refusal_explained', ...timed];
      case 'refused-before-launch':
        return ['start.refused', 'start.stops', 'start.no_launch', ...reason, ...timed];
      case 'refused-before-connect':
        return ['start.refused', 'start.stops', 'start.no_connect', ...reason, ...timed];
    }
  },
  judge(expect, facts, { records }, fail) {
    const { answer } = facts;
    if (expect.outcome === 'signing-in' && (expect.within_ms === undefined || answer.kind !== 'timeout')) return;
    if (answer.kind === 'timeout') {
      fail('start.within_ms', `start decided within ${expect.within_ms} ms`, expect.outcome, describe(answer));
      return;
    }
    const ready = answer.kind === 'result';
    if (expect.outcome === 'ready') {
      if (!ready) fail('start.ready', 'start ready', 'a result to the opening request (initialize; server/discover in 2026-07-28)', describe(answer));
      return;
    }
    if (ready) {
      fail('start.refused', 'start refused', 'the candidate refuses to serve', 'it answered the opening request and serves');
      return;
    }
    if (expect.outcome === 'refused') {
      const needed = expect.after ?? 'tools/list';
      if (!records.slice(facts.mark, facts.end).some((record) => record.ev === 'recv' && record.method === needed)) {
        fail('start.contact', 'refusal after contact', `the server received ${needed} before the refusal`, `the server never received ${needed}`);
      }
      if (answer.kind !== 'error' && facts.refusal === undefined) {
        fail('start.refusal_explained', 'refusal explained', 'an initialize error, or a reason from the adapter', `${describe(answer)}; ${facts.canExplain ? 'the adapter reports no refusal' : 'the adapter has no startRefusal hook'}`);
      }
      return;
    }
    const made = expect.outcome === 'refused-before-launch' ? launches(records.slice(facts.mark, facts.end)).length : connections(records.slice(0, facts.end)).length;
    refusedBeforeReaching(expect.outcome === 'refused-before-launch' ? 'launch' : 'connect', facts, made, fail);
    if (expect.reason_includes === undefined) return;
    if (facts.refusal === undefined) {
      const exit = facts.exit ? `it exited with ${facts.exit.code ?? facts.exit.signal}` : 'it did not stop';
      fail('start.reason', 'refusal explained', 'the candidate says why it refuses', `${exit}, and its adapter reports no refusal`);
      return;
    }
    for (const fragment of expect.reason_includes) {
      if (!facts.refusal.includes(fragment)) fail('start.reason', `refusal names ${JSON.stringify(fragment)}`, 'named in the reason', facts.refusal);
    }
  },
});
