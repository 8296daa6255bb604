import { shownTexts } from '../answer.js';
import { expectation } from '../types.js';

/** What the ordinary use must still show: the server's answer reaches the agent. */
export default expectation({
  block: 'call',
  name: 'text_includes',
  doc: "strings the text the agent is shown (a result's text blocks, or a protocol error's message) must contain",
  properties: { text_includes: { $ref: '#/$defs/fragments' } },
  checks: { 'call.text_includes': { class: 'benign', doc: 'the text shown carries what the server answered' } },
  judge(expect, { answer }, _judged, fail) {
    const text = shownTexts(answer).join('\n');
    for (const fragment of expect.text_includes ?? []) if (!text.includes(fragment)) fail('call.text_includes', `text includes ${JSON.stringify(fragment)}`, 'present', text.slice(0, 300));
  },
});
