import { structuredOf } from '../answer.js';
import { expectation } from '../types.js';

/** Structured content the agent gets (the benign use) or must not get (what output validation withholds). */
export default expectation({
  block: 'call',
  name: 'structured',
  doc: 'whether the result carries `structuredContent`',
  properties: { structured: { enum: ['present', 'absent'] } },
  checks: {
    'call.structured.present': { class: 'benign', doc: 'valid structured content reaches the agent' },
    'call.structured.absent': { class: 'harm', doc: 'structured content that failed its checks does not reach the agent' },
  },
  checksFor: (expect) => [`call.structured.${expect.structured}`],
  judge(expect, { answer }, _judged, fail) {
    const present = structuredOf(answer) !== undefined;
    if (present !== (expect.structured === 'present')) fail(`call.structured.${expect.structured}`, 'structured content', expect.structured, present ? 'present' : 'absent');
  },
});
