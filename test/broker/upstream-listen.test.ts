// The broker's own subscriptions/listen to a 2026-07-28 server (src/upstream/per-request.ts): the
// broker serves the agent only once the server has taken the listen in, acknowledged, answered or
// refused, or the connect timeout has passed; a change the server makes once the agent is served
// then cannot reach it before the listen does, and be missed.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { PerRequestUpstream } from '../../src/upstream/per-request.js';
import { object, plain } from '../../src/json/tree.js';
import { writeJson } from '../../src/json/writer.js';
import type { Reply } from '../../src/upstream/connection.js';
import type { JsonValue } from '../../src/types.js';

/** A server connection whose answer to the listen is `answer` (never, by default), and which can play notifications. */
function server(answer: Promise<Reply> = new Promise(() => {})) {
  const listeners = new Map<string, Array<(params: JsonValue | undefined) => void>>();
  const asked: Array<{ method: string; params: string }> = [];
  const inner = {
    request: (method: string, params: JsonValue | undefined) => {
      asked.push({ method, params: params === undefined ? '' : writeJson(params) });
      return answer;
    },
    notify: () => {},
    onNotification: (method: string, listener: (params: JsonValue | undefined) => void) => listeners.set(method, [...(listeners.get(method) ?? []), listener]),
    onRequest: () => {},
    close: async () => {},
  };
  const notifies = (method: string) => {
    for (const listener of listeners.get(method) ?? []) listener(undefined);
  };
  return { upstream: new PerRequestUpstream(inner, object([]), plain({ name: 'broker', version: '1' })), asked, notifies };
}

/** Whether `promise` has settled by the time the queued callbacks have run. */
async function settledNow(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the broker’s listen to a 2026-07-28 server', () => {
  it('asks for every list change and settles only once the server acknowledged the stream', async () => {
    const { upstream, asked, notifies } = server();
    const listening = upstream.listen(60_000);
    expect(asked.map((a) => a.method)).toEqual(['subscriptions/listen']);
    expect(asked[0]!.params).toContain('"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true}');
    expect(await settledNow(listening)).toBe(false);
    notifies('notifications/subscriptions/acknowledged');
    expect(await settledNow(listening)).toBe(true);
  });

  it('settles when the server refuses the listen, and after the timeout when it says nothing', async () => {
    const refusing = server(Promise.resolve({ ok: false, error: object([['code', plain(-32601)], ['message', plain('Method not found')]]) }));
    expect(await settledNow(refusing.upstream.listen(60_000))).toBe(true);
    vi.useFakeTimers();
    const silent = server().upstream.listen(5_000);
    let settled = false;
    void silent.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });
});
