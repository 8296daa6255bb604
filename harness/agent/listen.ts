/**
 * The agent's `subscriptions/listen` (MCP 2026-07-28, basic/patterns/subscriptions.mdx): in that
 * revision a client hears of list changes only on a stream it opened for them, where in 2025-11-25
 * a server sends them to the client unasked. So that a case of either revision puts the same
 * notices within the broker's reach to pass on, the agent of a 2026-07-28 case opens one stream
 * right after server/discover, asking for every list change, as an agent that shows the user a
 * current list would; what arrives on it is kept with every other line the agent received and
 * counted as in 2025-11-25. One stream a session: the transport's close ends it ("The underlying
 * transport closes (... stdio process exit)"), so nothing of it outlives the session.
 */
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';

export const LISTEN = 'subscriptions/listen';

/** The acknowledgment a server sends first on a stream it opened (MUST, before any notice on it). */
export const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** The `_meta` key naming the stream a message belongs to: the id of the listen request. */
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/**
 * The listen's params: every list change (not `resourceSubscriptions`, which replaced
 * resources/subscribe; the agent of 2025-11-25 subscribes to no resource unless a step says so).
 */
export const LISTEN_PARAMS = { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } } as const;

/**
 * How the listen went, for the transcript's notes: acknowledged (the stream is open), refused (an
 * error answered it), ended (a result answered it: the stream closed at once), or no word of it
 * before the time ran out or the channel closed. Only a note: what reaches the agent is judged by
 * the steps, whatever the broker made of the listen.
 */
export type ListenOutcome = 'acknowledged' | 'refused' | 'ended' | 'silent' | 'closed';

/** Whether `line` is the acknowledgment of the stream the listen of `id` opened. */
export function acknowledges(line: string, id: number): boolean {
  let message: unknown;
  try {
    message = parseLossless(line);
  } catch {
    return false;
  }
  if (!isObject(message) || message.method !== ACKNOWLEDGED || !isObject(message.params) || !isObject(message.params._meta)) return false;
  const tag = message.params._meta[SUBSCRIPTION_ID];
  return isLosslessNumber(tag) && tag.toString() === String(id);
}

/** The outcome of a listen from the kind of its answer (client.ts `Answer`), if one came first, and whether its acknowledgment arrived. */
export function listenOutcome(answer: { readonly kind: string } | undefined, acknowledged: boolean): ListenOutcome {
  if (acknowledged) return 'acknowledged';
  switch (answer?.kind) {
    case 'error':
    case 'malformed':
      return 'refused';
    case 'result':
      return 'ended';
    case 'closed':
      return 'closed';
    default:
      return 'silent';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
