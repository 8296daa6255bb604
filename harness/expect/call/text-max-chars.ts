import { codePoints, shownTexts } from '../answer.js';
import { expectation } from '../types.js';

export default expectation({
  block: 'call',
  name: 'text_max_chars',
  doc: 'the most code points the agent may be shown over all text blocks',
  properties: { text_max_chars: { type: 'integer', minimum: 0 } },
  checks: { 'call.text_max_chars': { class: 'harm', doc: 'the agent is shown no more text than the cap' } },
  judge(expect, { answer }, _judged, fail) {
    const chars = codePoints(shownTexts(answer));
    if (chars > expect.text_max_chars!) fail('call.text_max_chars', 'text length', `at most ${expect.text_max_chars} characters`, chars);
  },
});
