import { isDeepStrictEqual } from 'node:util';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import type { Answer } from '../../agent/client.js';
import { describe } from '../answer.js';
import { CandidateUnresponsive } from '../../run/outcome.js';
import { expectation } from '../types.js';

/** A name no server offers, for comparing refusals with the answer to a tool that does not exist. */
const NOWHERE_TOOL = 'gauntlet_tool_that_exists_nowhere';

/** Every string of a JSON value, keys included, with the names taken out. */
function masked(value: unknown, names: readonly string[]): unknown {
  if (typeof value === 'string') return names.reduce((text, name) => text.split(name).join('<name>'), value);
  if (isLosslessNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.map((item) => masked(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [masked(key, names), masked(member, names)]));
}

/**
 * The answer with the names it was asked about taken out, so two refusals compare on their shape:
 * the whole error object as it was sent, since a refusal can tell the agent something in any of
 * its members (`data` among them), not only in its code and message.
 */
export const shape = (answer: Answer, names: readonly string[]) =>
  answer.kind === 'error' ? masked((parseLossless(answer.raw) as { error?: unknown }).error, names.filter((name) => name !== '')) : { answer: describe(answer) };

/** A hidden tool answers exactly as one that exists nowhere: any difference tells the agent it is there. */
export default expectation({
  block: 'call',
  name: 'answers_like_unknown',
  doc: 'the refusal is indistinguishable from the answer to a tool that exists nowhere (same code, same words)',
  properties: { answers_like_unknown: { const: true } },
  checks: { 'call.answers_like_unknown': { class: 'harm', doc: 'the refusal tells the agent nothing about a hidden tool' } },
  async observe(_expect, facts, live) {
    const nowhere = await live.callTool(NOWHERE_TOOL);
    if (nowhere.kind === 'closed' || nowhere.kind === 'timeout') throw new CandidateUnresponsive(`${facts.label}: tools/call ${NOWHERE_TOOL} ${describe(nowhere)}`);
    facts.nowhere = nowhere;
  },
  judge(_expect, facts, _judged, fail) {
    const hidden = shape(facts.answer, [facts.calledAs]);
    const absent = shape(facts.nowhere!, [NOWHERE_TOOL]);
    if (!isDeepStrictEqual(hidden, absent)) fail('call.answers_like_unknown', `${facts.step.tool} answers like an unknown tool`, absent, hidden);
  },
});
