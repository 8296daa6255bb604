import { expectation } from '../types.js';

/** What the client received, every body of the step: another session's data must not be in it. */
export default expectation({
  block: 'http',
  name: 'received_excludes',
  doc: 'texts in no body the client received during the step (its initialize included)',
  properties: { received_excludes: { $ref: '#/$defs/fragments' } },
  checks: { 'http.received_excludes': { class: 'harm', doc: 'the client received none of the texts' } },
  judge(expect, facts, _judged, fail) {
    for (const text of expect.received_excludes ?? []) {
      const holders = facts.exchanges.filter((exchange) => exchange.body.includes(text)).map((exchange) => exchange.what);
      if (holders.length > 0) fail('http.received_excludes', `${facts.step.client} never receives ${JSON.stringify(text)}`, 'in no body', `in ${holders.join(', ')}`);
    }
  },
});
