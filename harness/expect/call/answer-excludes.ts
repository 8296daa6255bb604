import type { Answer } from '../../agent/client.js';
import { everyStringReceived } from '../answer.js';
import { expectation, type Fail } from '../types.js';
import { carrierOf } from '../../observe/spellings.js';

/**
 * Fails `check` for each fragment found in any string of the answer or the other lines: shared by
 * every step that judges what reached the agent.
 */
export function judgeExcluded(check: string, fragments: readonly string[], answer: Answer, others: readonly string[], fail: Fail): void {
  const strings = everyStringReceived(answer, others);
  for (const fragment of fragments) {
    const holder = carrierOf(strings, fragment);
    if (holder !== undefined) fail(check, `agent never receives ${JSON.stringify(fragment)}`, 'absent', `present: ${holder.slice(0, 200)}`);
  }
}

/**
 * What must not reach the agent, looked for everywhere it could: every string of the answer's
 * line (text and resource blocks, structured content, `_meta`, an error's message and data) and
 * of every other line the broker sent from the call until the next step that talked to it. A label on the answer changes none.
 */
export default expectation({
  block: 'call',
  name: 'answer_excludes',
  doc: 'strings that appear nowhere the agent received from the call until the next step that talks to the broker: every string of the answer (decoded) and of every notification or request the broker sent meanwhile (found as written or respelt: compatibility forms, any case)',
  properties: { answer_excludes: { $ref: '#/$defs/fragments' } },
  checks: { 'call.answer_excludes': { class: 'harm', doc: 'the agent received none of these strings, on any channel' } },
  judge(expect, { answer, others }, _judged, fail) {
    judgeExcluded('call.answer_excludes', expect.answer_excludes ?? [], answer, others, fail);
  },
});
