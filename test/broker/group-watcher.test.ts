// The group watcher (src/upstream/watcher.ts) run from source in this process, so that mutation
// testing reaches it: the watcher kills the whole group once the end of its pipe the broker holds
// closes (what the kernel does when the broker dies), it is named in the process list and holds
// nothing of the broker open, and once dismissed it is gone and kills nothing. watcher.test.ts shows the same with a broker really killed outright.

import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupWatcher } from '../../src/upstream/watcher.js';
import { waitDead } from './e2e-helpers.js';
import { killGroups, liveMembers, sleepingGroup, watchersOf } from './process-groups.js';

afterEach(killGroups);

/** The watcher's own process, which the broker never exposes: the test plays the kernel's part. */
const processOf = (watcher: GroupWatcher): ChildProcess => (watcher as unknown as { child: ChildProcess }).child;

describe('GroupWatcher in this process', () => {
  it('kills every process of the group once its pipe closes, and then ends', async () => {
    const pgid = sleepingGroup();
    const watcher = processOf(GroupWatcher.start(pgid));
    expect(liveMembers(pgid)).toHaveLength(2);
    // The kernel closes the broker's end when the broker dies; here the test closes it.
    watcher.stdin!.end();
    expect(await waitDead(pgid)).toBe(true);
    expect(liveMembers(pgid)).toEqual([]);
    expect(await waitDead(watcher.pid!)).toBe(true);
  });

  it('runs in a session of its own, outside the group of the process that started it', () => {
    const watcher = processOf(GroupWatcher.start(sleepingGroup()));
    const stat = readFileSync(`/proc/${watcher.pid}/stat`, 'utf8');
    const [, , group, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(group)).toBe(watcher.pid);
    expect(Number(session)).toBe(watcher.pid);
  });

  it('is named in the process list, with the group it watches, for an operator to see what it is', () => {
    const pgid = sleepingGroup();
    const watcher = processOf(GroupWatcher.start(pgid));
    expect(watchersOf(pgid)).toEqual([watcher.pid]);
  });

  it('holds nothing of this process open: neither the watcher nor its pipes keep the event loop running', () => {
    // Only what keeps the loop alive is listed; a watcher's own stdout or stderr pipe would be.
    const holding = () => process.getActiveResourcesInfo().filter((kind) => kind === 'PipeWrap' || kind === 'ProcessWrap').length;
    const before = holding();
    GroupWatcher.start(sleepingGroup());
    expect(holding()).toBe(before);
  });

  it('once dismissed, is gone and leaves the group alone', async () => {
    const pgid = sleepingGroup();
    const watcher = GroupWatcher.start(pgid);
    watcher.dismiss();
    watcher.dismiss();
    expect(await waitDead(processOf(watcher).pid!)).toBe(true);
    // The pipe stays open in this process, so only a watcher that fired when it was dismissed
    // could have killed the group, and it is gone.
    expect(liveMembers(pgid)).toHaveLength(2);
  });
});
