import { judgeExcluded } from '../call/answer-excludes.js';
import { expectation } from '../types.js';

/** What must not reach the agent, looked for in every string of the answer and of every other line the broker sent during the step. */
export default expectation({
  block: 'request',
  name: 'answer_excludes',
  doc: 'strings that appear nowhere the agent received during the step: every string of the answer (decoded) and of every notification or request the broker sent meanwhile (found as written or respelt: compatibility forms, any case)',
  properties: { answer_excludes: { $ref: '#/$defs/fragments' } },
  checks: { 'request.answer_excludes': { class: 'harm', doc: 'the agent received none of these strings, on any channel' } },
  judge(expect, { answer, others }, _judged, fail) {
    judgeExcluded('request.answer_excludes', expect.answer_excludes ?? [], answer, others, fail);
  },
});
