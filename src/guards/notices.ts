// The guards on a server's notifications to the agent: log messages (notifications/message) and
// progress (notifications/progress) carry text the server chose, which is redacted, inspected and
// escaped before the agent sees it; floods of log lines and of resources or prompts list_changed
// notices are bounded per session; and progress reaches the agent only for a token the broker
// issued for one of the agent's calls still in flight.

import { member, object } from '../json/tree.js';
import type { JsonObject } from '../types.js';
import { redactor, redactValue } from '../result/redact.js';
import { escapeServerText } from '../inspect/sanitize.js';
import { inspectMessage } from '../inspect/stage.js';
import type { NotificationGuard } from './types.js';
import { mapStrings, presentMembers, withMembers } from '../json/members.js';

const LOG = 'notifications/message';
const PROGRESS = 'notifications/progress';

/** The members of each notification's params that hold text the server chose. */
const TEXT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  [LOG]: ['logger', 'data'],
  [PROGRESS]: ['message'],
};

const textOf = (params: JsonObject, method: string): JsonObject => object(presentMembers(params, TEXT_MEMBERS[method] ?? []));
const replaced = (params: JsonObject, text: JsonObject): JsonObject => withMembers(params, Object.fromEntries(text.entries));

export const noticeRedacted: NotificationGuard = {
  name: 'notice-redacted',
  methods: [LOG, PROGRESS],
  check({ method, params }, { serverEnv }) {
    const redact = redactor(serverEnv);
    const text = textOf(params, method);
    // The server's environment first, from what inspection would normalise too; then secrets and
    // injections, which withhold the whole notification: a log line is not worth a partial leak.
    const redacted = redact === undefined ? text : redactValue(text, redact);
    const inspected = inspectMessage(redacted, method === LOG ? 'log' : 'notification');
    if (!inspected.ok || inspected.message.kind !== 'object') return { kind: 'drop' };
    return { kind: 'forward', params: replaced(params, inspected.message) };
  },
};

export const noticeEscaped: NotificationGuard = {
  name: 'notice-escaped',
  methods: [LOG, PROGRESS],
  check({ method, params }) {
    const escaped = mapStrings(textOf(params, method), escapeServerText);
    return { kind: 'forward', params: escaped.kind === 'object' ? replaced(params, escaped) : params };
  },
};

export const logFloodBound: NotificationGuard = {
  name: 'log-flood-bound',
  methods: [LOG],
  check: ({ params }, { policy, count }) => (count > policy.notifications.maxLogMessages ? { kind: 'drop' } : { kind: 'forward', params }),
};

export const progressOwnToken: NotificationGuard = {
  name: 'progress-own-token',
  methods: [PROGRESS],
  check: ({ params }, { ownProgress }) => (ownProgress && member(params, 'progressToken') !== undefined ? { kind: 'forward', params } : { kind: 'drop' }),
};

export const listChangedBound: NotificationGuard = {
  name: 'list-changed-bound',
  methods: ['notifications/resources/list_changed', 'notifications/prompts/list_changed'],
  check: ({ params }, { policy, count }) => (count > policy.notifications.maxListChanged ? { kind: 'drop' } : { kind: 'forward', params }),
};
