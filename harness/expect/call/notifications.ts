import { firstUnescaped } from '../../observe/escaped.js';
import { countByMethod, initiatedIn } from '../../observe/initiated.js';
import { expectation } from '../types.js';
import { judgeMethodCounts, PER_METHOD } from './method-counts.js';

/** The notifications among lines the agent received, by method. */
function noticesIn(others: readonly string[]) {
  return initiatedIn(others).filter((message) => !message.request);
}

/**
 * The notifications the broker sent the agent from the call's start until the next step that
 * talked to it (logging, progress, list_changed): a flood past the bound, or text a server chose
 * arriving with raw control or bidi characters, is harm; a notification the operator allows that
 * never arrives is the benign use broken. Strings that must not arrive are `answer_excludes`,
 * which looks at these lines too.
 */
export default expectation({
  block: 'call',
  name: 'notifications',
  doc: 'the notifications the broker sent the agent from the call until the next step that talks to it, by method: `max` (at most so many of each), `min` (at least so many), `escaped` (no string in any holds a raw control, bidi or zero-width character)',
  properties: {
    notifications: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { max: PER_METHOD, min: PER_METHOD, escaped: { const: true } },
    },
  },
  checks: {
    'call.notifications_max': { class: 'harm', doc: 'no more notifications of each method reached the agent than the step allows' },
    'call.notifications_min': { class: 'benign', doc: 'the notifications the operator allows reached the agent' },
    'call.notifications_escaped': { class: 'harm', doc: 'no raw control, bidi or zero-width character reached the agent in a notification' },
  },
  checksFor: ({ notifications: given = {} }) => [
    ...(given.max ? ['call.notifications_max'] : []),
    ...(given.min ? ['call.notifications_min'] : []),
    ...(given.escaped ? ['call.notifications_escaped'] : []),
  ],
  // A broker on HTTP may send the call's notices on its GET stream, after the answer: the benign
  // minimum waits for them (boundedly); the bounds of harm count everything until the next step.
  async observe({ notifications: given = {} }, _facts, live) {
    const { min } = given;
    if (min === undefined) return;
    await live.lateLines((others) => {
      const counts = countByMethod(noticesIn(others));
      return Object.entries(min).every(([method, least]) => (counts.get(method) ?? 0) >= least);
    });
  },
  judge({ notifications: given = {} }, { others }, _judged, fail) {
    const notices = noticesIn(others);
    judgeMethodCounts(countByMethod(notices), given, { max: 'call.notifications_max', min: 'call.notifications_min' }, fail);
    if (given.escaped) {
      const raw = firstUnescaped(notices.map((notice) => notice.params));
      if (raw !== undefined) fail('call.notifications_escaped', 'notifications escaped', 'no raw control, bidi or zero-width characters', JSON.stringify(raw));
    }
  },
});
