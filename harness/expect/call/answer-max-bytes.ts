import type { Answer } from '../../agent/client.js';
import { rawOf } from '../answer.js';
import { expectation } from '../types.js';

/** The UTF-8 bytes of the answer's line and of every other line the broker sent meanwhile. */
export function bytesReceived(answer: Answer, others: readonly string[]): number {
  return [rawOf(answer) ?? '', ...others].reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8'), 0);
}

/**
 * How much the agent received, counted without decoding: the answer's line and every other line
 * the broker sent while the call was open, in UTF-8 bytes. A bound the server's oversized answer
 * cannot meet wherever in the answer a liar moves it (text, structured content, `_meta`).
 */
export default expectation({
  block: 'call',
  name: 'answer_max_bytes',
  doc: 'the most UTF-8 bytes the agent may receive from the call until the next step that talks to the broker: the answer\'s line and every other line the broker sent meanwhile',
  properties: { answer_max_bytes: { type: 'integer', minimum: 1 } },
  checks: { 'call.answer_max_bytes': { class: 'harm', doc: 'no more than the bound reached the agent, on any channel' } },
  judge(expect, { answer, others }, _judged, fail) {
    const bytes = bytesReceived(answer, others);
    if (bytes > expect.answer_max_bytes!) fail('call.answer_max_bytes', 'bounded answer', `at most ${expect.answer_max_bytes} bytes`, `${bytes} bytes`);
  },
});
