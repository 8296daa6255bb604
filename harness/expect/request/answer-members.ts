import { canonicalJson } from '../../observe/canonical.js';
import { expectation } from '../types.js';

/**
 * Where `wanted` and `seen` differ, as a path and the value seen there; null where `seen` holds
 * every member `wanted` names, at any depth (other members are free), each other value equal.
 */
function firstDifference(wanted: unknown, seen: unknown, path: string): { path: string; seen: string } | null {
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(wanted)) return canonicalJson(wanted) === canonicalJson(seen) ? null : { path, seen: seen === undefined ? '(absent)' : canonicalJson(seen) };
  if (!isObject(seen)) return { path, seen: seen === undefined ? '(absent)' : canonicalJson(seen) };
  for (const [key, value] of Object.entries(wanted)) {
    const difference = firstDifference(value, seen[key], `${path}.${key}`);
    if (difference !== null) return difference;
  }
  return null;
}

/** Members of the answer's result that must reach the agent as given: a completion's `total` and `hasMore`, say. */
export default expectation({
  block: 'request',
  name: 'answer_members',
  doc: "members the agent's result must carry, each as given (objects compared member by member, at any depth; other members are free)",
  properties: { answer_members: { type: 'object', minProperties: 1 } },
  checks: { 'request.answer_members': { class: 'benign', doc: 'what the server answered beyond strings (a count, a flag) reaches the agent as sent' } },
  judge(expect, { answer }, _judged, fail) {
    if (expect.answer_members === undefined) return;
    const result = answer.kind === 'result' ? answer.result : undefined;
    const difference = firstDifference(expect.answer_members, result, 'result');
    if (difference !== null) fail('request.answer_members', `agent receives ${difference.path}`, 'as the server sent it', difference.seen);
  },
});
