import { everyStringReceived } from '../answer.js';
import { expectation } from '../types.js';

/** What the ordinary use hands the agent: the contents of an allowed resource, the messages of an allowed prompt. */
export default expectation({
  block: 'request',
  name: 'answer_includes',
  doc: "strings some string of the agent's answer must contain (decoded)",
  properties: { answer_includes: { $ref: '#/$defs/fragments' } },
  checks: { 'request.answer_includes': { class: 'benign', doc: 'what the operator allows reaches the agent' } },
  judge(expect, { answer }, _judged, fail) {
    const strings = everyStringReceived(answer, []);
    for (const fragment of expect.answer_includes ?? []) {
      if (!strings.some((text) => text.includes(fragment))) fail('request.answer_includes', `agent receives ${JSON.stringify(fragment)}`, 'present', 'absent');
    }
  },
});
