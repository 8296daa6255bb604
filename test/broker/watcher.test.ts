// The group watcher (src/upstream/watcher.ts) against real processes: it kills the group it
// watches when its broker is killed outright, and once dismissed it kills nothing.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupWatcher } from '../../src/upstream/watcher.js';
import { waitDead } from './e2e-helpers.js';

const WATCHER = resolve('dist/src/upstream/watcher.js');

/** A process group of its own, led by a sleeper, with a second sleeper in it; its pgid. */
function sleepingGroup(): number {
  const leader = spawn('/bin/sh', ['-c', 'sleep 300 & exec sleep 300'], { detached: true, stdio: 'ignore' });
  leader.unref();
  groups.push(leader.pid!);
  return leader.pid!;
}

/** The pids in group `pgid` that are alive (a zombie is not), read from /proc. */
function liveMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // After the command's closing parenthesis: state, ppid, pgrp.
        const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(group) === pgid && state !== 'Z' && state !== 'X' ? [Number(pid)] : [];
      } catch {
        return []; // gone while the directory was read
      }
    });
}

const groups: number[] = [];
afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone, as the test wanted.
    }
  }
});

describe('GroupWatcher', () => {
  it('kills the whole group when the process that started it is killed outright', async () => {
    const pgid = sleepingGroup();
    // A stand-in broker: it starts the watcher and is then killed by SIGKILL, running nothing.
    const broker = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `const { GroupWatcher } = await import(${JSON.stringify(WATCHER)}); GroupWatcher.start(${pgid}); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 200);`,
    ]);
    await new Promise((done) => broker.once('exit', done));
    expect(await waitDead(pgid)).toBe(true);
    expect(liveMembers(pgid)).toEqual([]);
  });

  it('once dismissed, leaves the group alone', async () => {
    const pgid = sleepingGroup();
    const watcher = GroupWatcher.start(pgid);
    watcher.dismiss();
    watcher.dismiss();
    // The pipe stays open in this process, so only a watcher that fired when it was dismissed
    // could kill the group; it would have done so well within this wait.
    await new Promise((done) => setTimeout(done, 300));
    expect(liveMembers(pgid)).toHaveLength(2);
  });
});
