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

export class ServerInitiated {
  private readonly listeners = new Map<string, Array<(params: JsonValue | undefined) => void>>();
  private handler: ServerRequestHandler | undefined;

  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }

  onRequest(handler: ServerRequestHandler): void {
    this.handler = handler;
  }

  /** Only what someone listens for has any effect; the tool set offered is fixed at Load either way. */
  notification(method: string, params: JsonValue | undefined): void {
    for (const listener of this.listeners.get(method) ?? []) listener(params);
  }

  /**
   * The answer to a request the server sent. Ping is answered so that a server checking liveness
   * does not give up on the broker; anything else only once a session handles the server's
   * requests (not during Load). A failure of the broker's own answers the server; it never ends
   * the session.
   */
  answer(method: string, params: JsonValue | undefined): Promise<Reply> {
    if (method === 'ping') return Promise.resolve({ ok: true, result: object([]) });
    if (this.handler === undefined) return Promise.resolve({ ok: false, error: brokerError(ERROR.methodNotFound, `Method not found: ${method}`) });
    return this.handler(method, params).catch((): Reply => ({ ok: false, error: brokerError(ERROR.internal, 'Internal error') }));
  }
}
