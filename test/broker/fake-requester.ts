// An in-memory stand-in for the server connection: answers each request from a handler and
// records what was asked, so listing and session logic can be tested without a process.

import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { Reply, Requester, ServerRequestHandler } from '../../src/upstream/connection.js';
import type { JsonValue } from '../../src/types.js';

export interface Asked {
  readonly method: string;
  /** The params as the broker wrote them. */
  readonly params: string | undefined;
  readonly timeoutMs: number;
}

/** `answer` returns a raw result text, an Error to reject with, or `{ error }` for a JSON-RPC error. */
export class FakeRequester implements Requester {
  readonly asked: Asked[] = [];
  readonly notified: string[] = [];
  private readonly listeners = new Map<string, Array<(params: JsonValue | undefined) => void>>();
  /** What answers the requests the server starts, once the session has said. */
  handler: ServerRequestHandler | undefined;

  constructor(private readonly answer: (method: string, params: string | undefined) => string | Error | { error: string }) {}

  request(method: string, params: JsonValue | undefined, timeoutMs: number): Promise<Reply> {
    const written = params === undefined ? undefined : writeJson(params);
    this.asked.push({ method, params: written, timeoutMs });
    const answer = this.answer(method, written);
    if (answer instanceof Error) return Promise.reject(answer);
    if (typeof answer === 'string') return Promise.resolve({ ok: true, result: readJson(answer) });
    const error = readJson(answer.error);
    if (error.kind !== 'object') throw new Error('error must be an object');
    return Promise.resolve({ ok: false, error });
  }

  notify(method: string): void {
    this.notified.push(method);
  }

  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }

  onRequest(handler: ServerRequestHandler): void {
    this.handler = handler;
  }

  /** Plays the server sending a notification of `method`, with params as JSON text. */
  serverNotifies(method: string, params?: string): void {
    for (const listener of this.listeners.get(method) ?? []) listener(params === undefined ? undefined : readJson(params));
  }

  /** Plays the server sending a request of `method`, with params as JSON text: the answer it gets. */
  serverRequests(method: string, params?: string): Promise<Reply> {
    if (this.handler === undefined) throw new Error('no session handles the server’s requests');
    return this.handler(method, params === undefined ? undefined : readJson(params));
  }
}

/** A reply with its JSON written out, for exact comparison. */
export const replyText = (reply: Reply) => (reply.ok ? { ok: true, result: writeJson(reply.result) } : { ok: false, error: writeJson(reply.error) });
