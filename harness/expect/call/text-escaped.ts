import { firstUnescaped } from '../../observe/escaped.js';
import { shownTexts } from '../answer.js';
import { expectation } from '../types.js';

export default expectation({
  block: 'call',
  name: 'text_escaped',
  doc: 'the text shown holds no raw control, bidi or zero-width character: what the server chose is escaped',
  properties: { text_escaped: { const: true } },
  checks: { 'call.text_escaped': { class: 'harm', doc: 'no raw control, bidi or zero-width character reaches the agent' } },
  judge(_expect, { answer }, _judged, fail) {
    const raw = firstUnescaped(shownTexts(answer));
    if (raw !== undefined) fail('call.text_escaped', 'text escaped', 'no raw control, bidi or zero-width characters', JSON.stringify(raw));
  },
});
