import { bytesReceived } from '../call/answer-max-bytes.js';
import { expectation } from '../types.js';

/** How much reached the agent, counted without decoding, wherever in the answer a liar puts it. */
export default expectation({
  block: 'request',
  name: 'answer_max_bytes',
  doc: "the most UTF-8 bytes the agent may receive during the step: the answer's line and every other line the broker sent meanwhile",
  properties: { answer_max_bytes: { type: 'integer', minimum: 1 } },
  checks: { 'request.answer_max_bytes': { class: 'harm', doc: 'no more than the bound reached the agent, on any channel' } },
  judge(expect, { answer, others }, _judged, fail) {
    const bytes = bytesReceived(answer, others);
    if (bytes > expect.answer_max_bytes!) fail('request.answer_max_bytes', 'bounded answer', `at most ${expect.answer_max_bytes} bytes`, `${bytes} bytes`);
  },
});
