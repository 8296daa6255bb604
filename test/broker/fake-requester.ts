// An in-memory stand-in for the server connection: answers each request from a handler and
// records what was asked, so listing and session logic can be tested without a process.

import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { Reply, Requester } from '../../src/upstream/connection.js';
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
  private readonly listeners = new Map<string, Array<() => void>>();

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

  onNotification(method: string, listener: () => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }

  /** Plays the server sending a notification of `method`. */
  serverNotifies(method: string): void {
    for (const listener of this.listeners.get(method) ?? []) listener();
  }
}
