// Signalling a server and closing every server as the broker ends (src/upstream/reaper.ts), in
// this process: a signal reaches one process or a whole group, and the answer says whether
// anything was there to receive it. The reaper's exit and signal handlers are driven on a
// stand-in for the broker's process, so that what they do is seen without this process ending;
// the e2e tests show them in a real broker (e2e.test.ts, a broker stopped by SIGTERM and SIGINT
// leaves no server behind).

import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Reaper, signalGroup, signalProcess, type Host } from '../../src/upstream/reaper.js';
import { waitDead } from './e2e-helpers.js';
import { killGroups, liveMembers, sleepingGroup } from './process-groups.js';

afterEach(killGroups);

describe('signalling a server', () => {
  it('signals the whole group, and says it reached something', async () => {
    const pgid = sleepingGroup();
    await expect.poll(() => liveMembers(pgid)).toHaveLength(2);
    expect(signalGroup(pgid, 0)).toBe(true);
    expect(signalGroup(pgid, 'SIGKILL')).toBe(true);
    expect(await waitDead(pgid)).toBe(true);
    await expect.poll(() => liveMembers(pgid)).toEqual([]);
  });

  it('says nothing is left for a group or a process that does not exist', () => {
    // Past the kernel's largest pid (2^22): no process or group can have it.
    expect(signalGroup(2 ** 22 + 1, 0)).toBe(false);
    expect(signalProcess(2 ** 22 + 1, 'SIGKILL')).toBe(false);
  });

  it('signals one process and not the rest of its group', async () => {
    const pgid = sleepingGroup();
    await expect.poll(() => liveMembers(pgid)).toHaveLength(2);
    const [other] = liveMembers(pgid).filter((pid) => pid !== pgid);
    expect(signalProcess(pgid, 'SIGKILL')).toBe(true);
    expect(await waitDead(pgid)).toBe(true);
    expect(liveMembers(pgid)).toEqual([other]);
    expect(signalProcess(other!, 0)).toBe(true);
  });
});

/** A stand-in for the broker's process: its events are emitted by the test, its exits recorded. */
class StandIn extends EventEmitter implements Host {
  readonly exits: number[] = [];
  exit(code: number): void {
    this.exits.push(code);
  }
}

/** A tracked server's stand-in: what it was asked, and a close the test settles. */
function server(name: string, asked: string[]) {
  let settle!: () => void;
  let fail!: (error: Error) => void;
  const closed = new Promise<void>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  return {
    close: () => {
      asked.push(`${name} close`);
      return closed;
    },
    signal: (signal: NodeJS.Signals | 0) => {
      asked.push(`${name} ${signal}`);
      return true;
    },
    settle: () => settle(),
    fail: (error: Error) => fail(error),
  };
}

const turns = async (n = 3): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the reaper', () => {
  it('installs nothing until a server is tracked, then one handler per way of ending, once', () => {
    const host = new StandIn();
    const reaper = new Reaper(host);
    expect(host.eventNames()).toEqual([]);
    const asked: string[] = [];
    for (const [pid, name] of [[101, 'a'], [102, 'b']] as const) {
      const tracked = server(name, asked);
      reaper.track(pid, tracked.close, tracked.signal);
    }
    expect(host.eventNames().sort()).toEqual(['SIGHUP', 'SIGINT', 'SIGTERM', 'exit']);
    for (const event of host.eventNames()) expect(host.listenerCount(event)).toBe(1);
  });

  it('kills every server still tracked outright as the broker exits, and none it has let go', () => {
    const host = new StandIn();
    const reaper = new Reaper(host);
    const asked: string[] = [];
    for (const [pid, name] of [[101, 'a'], [102, 'b'], [103, 'c']] as const) {
      const tracked = server(name, asked);
      reaper.track(pid, tracked.close, tracked.signal);
    }
    reaper.untrack(102);
    host.emit('exit');
    expect(asked).toEqual(['a SIGKILL', 'c SIGKILL']);
    expect(host.exits).toEqual([]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('on %s closes every server gracefully, then exits %d once all have closed, however they closed', async (signal, code) => {
    const host = new StandIn();
    const reaper = new Reaper(host);
    const asked: string[] = [];
    const a = server('a', asked);
    const b = server('b', asked);
    reaper.track(101, a.close, a.signal);
    reaper.track(102, b.close, b.signal);
    host.emit(signal);
    expect(asked).toEqual(['a close', 'b close']);
    a.settle();
    await turns();
    // Still waiting for b: the grace is each server's to use.
    expect(host.exits).toEqual([]);
    b.fail(new Error('b would not close'));
    await turns();
    expect(host.exits).toEqual([code]);
    expect(asked).toEqual(['a close', 'b close']);
  });

  it('cuts the grace short on a second signal, exiting at once without closing anything again', async () => {
    const host = new StandIn();
    const reaper = new Reaper(host);
    const asked: string[] = [];
    const a = server('a', asked);
    reaper.track(101, a.close, a.signal);
    host.emit('SIGTERM');
    host.emit('SIGINT');
    expect(host.exits).toEqual([130]);
    expect(asked).toEqual(['a close']);
    // The 'exit' handler then kills what is left.
    host.emit('exit');
    expect(asked).toEqual(['a close', 'a SIGKILL']);
  });

  it('closeAll closes every tracked server and settles when they all have', async () => {
    const reaper = new Reaper(new StandIn());
    const asked: string[] = [];
    const a = server('a', asked);
    const b = server('b', asked);
    reaper.track(101, a.close, a.signal);
    reaper.track(102, b.close, b.signal);
    let done = false;
    const closing = reaper.closeAll().then(() => (done = true));
    a.fail(new Error('a would not close'));
    await turns();
    expect(done).toBe(false);
    b.settle();
    await closing;
    expect(asked).toEqual(['a close', 'b close']);
  });
});
