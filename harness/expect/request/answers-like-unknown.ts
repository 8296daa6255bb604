import { isDeepStrictEqual } from 'node:util';
import { describe } from '../answer.js';
import { shape } from '../call/answers-like-unknown.js';
import { CandidateUnresponsive } from '../../run/outcome.js';
import { expectation } from '../types.js';

/** Every string a request's params hold: what an answer may quote back of what was asked. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsOf);
}

/** A hidden resource or prompt answers exactly as one that exists nowhere: any difference tells the agent it is there. */
export default expectation({
  block: 'request',
  name: 'answers_like_unknown',
  doc: 'the refusal is indistinguishable from the answer to the same method with these params, which name something that exists nowhere (same code, same words)',
  properties: { answers_like_unknown: { type: 'object' } },
  checks: { 'request.answers_like_unknown': { class: 'harm', doc: 'the refusal tells the agent nothing about what is hidden' } },
  async observe(expect, facts, live) {
    const nowhere = await live.request(facts.step.method, expect.answers_like_unknown);
    if (nowhere.kind === 'closed' || nowhere.kind === 'timeout') throw new CandidateUnresponsive(`${facts.label}: ${facts.step.method} ${describe(nowhere)}`);
    facts.nowhere = nowhere;
  },
  judge(expect, facts, _judged, fail) {
    const hidden = shape(facts.answer, stringsOf(facts.step.params));
    const absent = shape(facts.nowhere!, stringsOf(expect.answers_like_unknown));
    if (!isDeepStrictEqual(hidden, absent)) fail('request.answers_like_unknown', `${facts.step.method} answers like one about nothing`, absent, hidden);
  },
});
