import { codePoints } from '../answer.js';
import { expectation } from '../types.js';

/** Every `text` member anywhere in a value: a resource's contents, a prompt's message content. */
function texts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => (key === 'text' && typeof item === 'string' ? [item] : texts(item)));
}

export default expectation({
  block: 'request',
  name: 'text_max_chars',
  doc: 'the most code points the agent may be shown over every `text` of the answer (contents, message content)',
  properties: { text_max_chars: { type: 'integer', minimum: 0 } },
  checks: { 'request.text_max_chars': { class: 'harm', doc: 'the agent is shown no more text than the cap' } },
  judge(expect, { answer }, _judged, fail) {
    const chars = answer.kind === 'result' ? codePoints(texts(answer.result)) : 0;
    if (chars > expect.text_max_chars!) fail('request.text_max_chars', 'text length', `at most ${expect.text_max_chars} characters`, chars);
  },
});
