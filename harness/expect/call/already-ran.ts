import { structuredOf } from '../answer.js';
import { expectation } from '../types.js';

export default expectation({
  block: 'call',
  name: 'already_ran',
  doc: 'an after-dispatch rejection says the call already ran and must not be retried (`{already_ran: true, retry: false}`)',
  properties: { already_ran: { const: true } },
  checks: { 'call.already_ran': { class: 'contract', doc: 'a rejection after dispatch tells the agent not to retry' } },
  judge(_expect, { answer }, _judged, fail) {
    const content = structuredOf(answer);
    if (!(content?.already_ran === true && content.retry === false)) fail('call.already_ran', 'says it already ran', '{already_ran: true, retry: false}', content ?? '(no structuredContent)');
  },
});
