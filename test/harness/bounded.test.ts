// Every adapter call is bounded in time: a hung adapter method rejects with AdapterTimeout, a
// channel handed over too late is closed, and a close() that hangs ends with its group killed.

import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { AdapterTimeout, boundedCandidate } from '../../harness/candidates/bounded.js';
import { killGroup } from '../../harness/candidates/child.js';
import { ADAPTER_PROTOCOL, type AgentChannel, type Candidate, type SessionSpec } from '../../harness/candidates/types.js';

const TIMEOUT_MS = 50;
const MARGIN_MS = 50;
const BOUND_MS = TIMEOUT_MS + MARGIN_MS;
const spec = { timeoutMs: TIMEOUT_MS } as SessionSpec;
const info = { name: 'fake', version: '0', adapterProtocol: ADAPTER_PROTOCOL, claims: [] } as const;
const never = <T>(): Promise<T> => new Promise<T>(() => {});

const groups: number[] = [];
afterEach(() => {
  for (const pgid of groups.splice(0)) killGroup(pgid);
});

/** A channel that only records its closing; `close` decides how closing goes. */
function fakeChannel(close: () => Promise<void>, pid?: number): AgentChannel {
  return { send() {}, onLine() {}, exited: never(), pid, close };
}

describe('boundedCandidate', () => {
  it('rejects every method that never settles with AdapterTimeout naming it', async () => {
    const hung: Candidate = {
      info,
      pin: never,
      start: never,
      loadReport: never,
      startRefusal: never,
      approve: never,
      audit: never,
      auditLines: never,
    };
    const bounded = boundedCandidate(hung, MARGIN_MS);
    expect(bounded.info).toBe(info);
    const calls: Array<[string, Promise<unknown> | undefined]> = [
      ['pin', bounded.pin(spec)],
      ['start', bounded.start(spec)],
      ['loadReport', bounded.loadReport?.(spec)],
      ['startRefusal', bounded.startRefusal?.(spec, { code: 2, signal: null })],
      ['approve', bounded.approve?.(spec, { requestId: 'r1', decision: 'approve' })],
      ['audit', bounded.audit?.(spec)],
      ['auditLines', bounded.auditLines?.(spec)],
    ];
    for (const [method, call] of calls) {
      const error: unknown = await call?.catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(AdapterTimeout);
      expect((error as AdapterTimeout).method).toBe(method);
      expect((error as Error).message).toBe(`the adapter's ${method}() did not settle within ${BOUND_MS} ms`);
    }
  });

  it('passes through what settles in time, calls methods on the candidate, and adds no method it lacks', async () => {
    class Adapter implements Candidate {
      readonly info = info;
      private readonly lines = ['{"decision":"allow"}'];
      async pin() {
        return { ok: true, detail: 'pinned' };
      }
      async start(): Promise<AgentChannel> {
        throw new Error('refused to start');
      }
      async auditLines() {
        return this.lines;
      }
    }
    const bounded = boundedCandidate(new Adapter(), MARGIN_MS);
    expect(await bounded.pin(spec)).toEqual({ ok: true, detail: 'pinned' });
    expect(await bounded.auditLines?.(spec)).toEqual(['{"decision":"allow"}']);
    await expect(bounded.start(spec)).rejects.toThrow('refused to start');
    expect('loadReport' in bounded).toBe(false);
    expect('approve' in bounded).toBe(false);
  });

  it('turns a synchronous throw into a rejection', async () => {
    const throwing: Candidate = {
      info,
      pin: () => {
        throw new Error('thrown at once');
      },
      start: never,
    };
    await expect(boundedCandidate(throwing, MARGIN_MS).pin(spec)).rejects.toThrow('thrown at once');
  });

  it('closes a channel that start() hands over after its bound', async () => {
    let handOver: (channel: AgentChannel) => void = () => {};
    const late: Candidate = { info, pin: never, start: () => new Promise((resolve) => (handOver = resolve)) };
    await expect(boundedCandidate(late, MARGIN_MS).start(spec)).rejects.toBeInstanceOf(AdapterTimeout);
    const closed = new Promise<void>((resolve) => handOver(fakeChannel(async () => resolve())));
    await closed;
  });

  it('kills the group of a channel whose close() never settles, and closes once', async () => {
    const process_ = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    if (process_.pid === undefined) throw new Error('the process did not start');
    groups.push(process_.pid);
    const exited = new Promise<string | null>((resolve) => process_.once('exit', (_code, signal) => resolve(signal)));
    let closes = 0;
    const channel = fakeChannel(() => {
      closes++;
      return never();
    }, process_.pid);
    const bounded = boundedCandidate({ info, pin: never, start: async () => channel }, MARGIN_MS);
    const started = await bounded.start(spec);
    expect(started.pid).toBe(process_.pid);
    const closing = started.close();
    expect(started.close()).toBe(closing);
    await closing;
    expect(await exited).toBe('SIGKILL');
    expect(closes).toBe(1);
  });
});
