// The `subscriptions/listen` streams a 2026-07-28 agent opens with the broker
// (basic/patterns/subscriptions.mdx): in that revision a client hears of list changes only on such
// a stream, which replaced the GET stream and resource subscriptions. The broker answers the
// request itself, as it answers server/discover: the stream is the broker's to the agent, not the
// server's, so what a server tags its own notices with (the id of the broker's own listen,
// src/upstream/per-request.ts) never reaches the agent; each notice the relay lets through
// (src/session/relay.ts: the same guards, the same bounds as for an agent of 2025-11-25) goes to
// every stream that asked for its type, tagged with that stream's id, and to no other.

import { ERROR, brokerError, notificationLine } from '../wire/jsonrpc.js';
import { withMeta } from '../wire/revision.js';
import { member, object, plain } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';

export const LISTEN = 'subscriptions/listen';

/** The acknowledgment, "the first message carrying the subscription's ID". */
export const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** The `_meta` key every message on a stream carries: the JSON-RPC id of the listen that opened it. */
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/**
 * The filter field of each notification the broker relays on a stream. Not `toolsListChanged`: the
 * tools the agent is offered are fixed at Load, and a server's notice that its tools changed is
 * the occasion for a rediscovery and the drift guards, never passed on; nor
 * `resourceSubscriptions`, as the broker relays no `notifications/resources/updated`. "Notification
 * types the server does not support are omitted" from the acknowledgment.
 */
const FILTER_FIELD: Readonly<Record<string, string>> = {
  'notifications/resources/list_changed': 'resourcesListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
};

/** Whether a notification of `method` travels on a stream in 2026-07-28, not as a message of its own. */
export const onStream = (method: string): boolean => Object.hasOwn(FILTER_FIELD, method);

/**
 * Streams open at once in one session: the spec lets a client hold several, and each costs a copy
 * of every notice it asked for, so an agent opening them without end would multiply what the
 * relay's bounds let through. Past this a listen is refused.
 */
export const MAX_LISTENS = 4;

interface Stream {
  readonly id: JsonValue;
  readonly notices: ReadonlySet<string>;
}

/** A listen as `open` leaves it: acknowledged with this line, or refused with this error. */
export type Opened = { readonly ok: true; readonly acknowledgment: string } | { readonly ok: false; readonly error: JsonObject };

export class AgentStreams {
  /** By the id's kind and text, so a cancellation matches the id however the agent wrote it. */
  private readonly open = new Map<string, Stream>();

  /** Opens a stream for the agent's listen request `id`, for the notices its filter asks for that the broker relays. */
  listen(id: JsonValue, params: JsonValue | undefined): Opened {
    const key = idKey(id);
    if (key === undefined || this.open.has(key)) return { ok: false, error: brokerError(ERROR.invalidRequest, 'Invalid request: a subscription with this id is already open') };
    if (this.open.size >= MAX_LISTENS) return { ok: false, error: brokerError(ERROR.invalidRequest, `Invalid request: at most ${MAX_LISTENS} subscriptions are open at once in a session`) };
    const filter = params?.kind === 'object' ? member(params, 'notifications') : undefined;
    const notices = new Set<string>();
    const honoured: Array<readonly [string, JsonValue]> = [];
    for (const [method, field] of Object.entries(FILTER_FIELD)) {
      const asked = filter?.kind === 'object' ? member(filter, field) : undefined;
      if (asked?.kind !== 'bool' || !asked.value) continue;
      notices.add(method);
      honoured.push([field, plain(true)]);
    }
    this.open.set(key, { id, notices });
    return { ok: true, acknowledgment: notificationLine(ACKNOWLEDGED, withMeta(object([['notifications', object(honoured)]]), [[SUBSCRIPTION_ID, id]])) };
  }

  /** The agent's notifications/cancelled: the stream its `requestId` names, if any, is closed. */
  cancel(params: JsonValue | undefined): void {
    const requestId = params?.kind === 'object' ? member(params, 'requestId') : undefined;
    const key = requestId === undefined ? undefined : idKey(requestId);
    if (key !== undefined) this.open.delete(key);
  }

  /** Whether a stream open now asked for notices of `method`. */
  wants(method: string): boolean {
    return [...this.open.values()].some((stream) => stream.notices.has(method));
  }

  /** The lines that carry a notice to every stream that asked for it, each tagged with its own id over any the server wrote. */
  lines(method: string, params: JsonObject): string[] {
    return [...this.open.values()].filter((stream) => stream.notices.has(method)).map((stream) => notificationLine(method, withMeta(params, [[SUBSCRIPTION_ID, stream.id]])));
  }
}

/** A notification's params without the server's subscription id: an id of the broker's own upstream listen, which is not the agent's. */
export function withoutServerTag(params: JsonObject): JsonObject {
  const meta = member(params, '_meta');
  if (meta?.kind !== 'object' || member(meta, SUBSCRIPTION_ID) === undefined) return params;
  const rest = meta.entries.filter(([key]) => key !== SUBSCRIPTION_ID);
  return object(params.entries.flatMap(([key, value]) => (key !== '_meta' ? [[key, value] as const] : rest.length === 0 ? [] : [[key, object(rest)] as const])));
}

/** A JSON-RPC id as a map key; undefined for anything that is not one. */
function idKey(id: JsonValue): string | undefined {
  if (id.kind === 'number') return `n:${id.text}`;
  if (id.kind === 'string') return `s:${id.value}`;
  return undefined;
}
