import { codePoints, shownTexts } from '../answer.js';
import { expectation } from '../types.js';

/** The truncation marker of docs/result-path.md: N characters sent, of M the server gave. */
const TRUNCATION_MARKER = /\[truncated: showing (\d+) of (\d+) characters\]$/;

export default expectation({
  block: 'call',
  name: 'truncated',
  doc: 'whether the text ends in the truncation marker of docs/result-path.md, counting what was sent',
  properties: { truncated: { type: 'boolean' } },
  checks: { 'call.truncated': { class: 'contract', doc: 'a cut text says so, with counts that match what was sent' } },
  judge(expect, { answer }, _judged, fail) {
    const texts = shownTexts(answer);
    const chars = codePoints(texts);
    const marker = TRUNCATION_MARKER.exec(texts.at(-1) ?? '');
    if (!expect.truncated && marker) fail('call.truncated', 'not truncated', 'no truncation marker', marker[0]);
    if (expect.truncated && !marker) fail('call.truncated', 'truncation marked', 'a truncation marker', `${chars} characters, no marker`);
    if (expect.truncated && marker && Number(marker[1]) !== chars) fail('call.truncated', 'marker counts what was sent', chars, Number(marker[1]));
  },
});
