// What a server starts on its own (its notifications and its requests), handed to whoever listens
// for them. Every connection, whatever its transport, hands them over through this one place, so
// a message the server sends over stdio, or on an HTTP event stream, reaches the same listeners
// and the same handler, and is judged by the same guards.

import { ERROR, brokerError } from '../wire/jsonrpc.js';
import { object } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';

/** A request's answer: its result, or its JSON-RPC error. */
export type Reply = { readonly ok: true; readonly result: JsonValue } | { readonly ok: false; readonly error: JsonObject };

/** Answers a request the server started; it must settle, within a bound of its own. */
export type ServerRequestHandler = (method: string, params: JsonValue | undefined) => Promise<Reply>;

/**
 * The most requests held at once before any session handles them, and how long each is held: a
 * server may ask (server-filesystem asks `roots/list` as soon as it is initialized) before the
 * agent has connected, and it is answered once the agent's session is there, not refused.
 */
export const MAX_HELD_REQUESTS = 16;
export const HOLD_MS = 60_000;

interface Held {
  readonly method: string;
  readonly params: JsonValue | undefined;
  readonly settle: (reply: Reply | PromiseLike<Reply>) => void;
  readonly timer: NodeJS.Timeout;
}

export class ServerInitiated {
  private readonly listeners = new Map<string, Array<(params: JsonValue | undefined) => void>>();
  private handler: ServerRequestHandler | undefined;
  /** The server's requests that arrived before any handler, oldest first. */
  private readonly held = new Set<Held>();

  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }

  /** From now on `handler` answers the server's requests, those held until now first. */
  onRequest(handler: ServerRequestHandler): void {
    this.handler = handler;
    const held = [...this.held];
    this.held.clear();
    for (const { method, params, settle, timer } of held) {
      clearTimeout(timer);
      settle(this.handled(handler, method, params));
    }
  }

  /** Only what someone listens for has any effect; the tool set offered is fixed at Load either way. */
  notification(method: string, params: JsonValue | undefined): void {
    for (const listener of this.listeners.get(method) ?? []) listener(params);
  }

  /**
   * The answer to a request the server sent. Ping is answered so that a server checking liveness
   * does not give up on the broker; anything else once a session handles the server's requests
   * (it is held until then, within MAX_HELD_REQUESTS and HOLD_MS, and refused past either). A
   * failure of the broker's own answers the server; it never ends the session.
   */
  answer(method: string, params: JsonValue | undefined): Promise<Reply> {
    if (method === 'ping') return Promise.resolve({ ok: true, result: object([]) });
    if (this.handler !== undefined) return this.handled(this.handler, method, params);
    if (this.held.size >= MAX_HELD_REQUESTS) return refused(`the broker holds ${MAX_HELD_REQUESTS} requests already until the agent's session is open: ${method} is refused`);
    return new Promise<Reply>((settle) => {
      const timer = setTimeout(() => {
        this.held.delete(entry);
        settle(refused(`no agent session was open to answer ${method} within ${HOLD_MS} ms`));
      }, HOLD_MS);
      // A broker that ends (pin, or Load refused) does not wait for a session that never comes.
      timer.unref();
      const entry: Held = { method, params, settle, timer };
      this.held.add(entry);
    });
  }

  private handled(handler: ServerRequestHandler, method: string, params: JsonValue | undefined): Promise<Reply> {
    return handler(method, params).catch((): Reply => ({ ok: false, error: brokerError(ERROR.internal, 'Internal error') }));
  }
}

function refused(message: string): Promise<Reply> {
  return Promise.resolve({ ok: false, error: brokerError(ERROR.upstream, message) });
}
