// Signalling a server (src/upstream/reaper.ts), in this process: a signal reaches one process or
// a whole group, and the answer says whether anything was there to receive it. The exit and
// signal handlers that close every tracked server run only as the broker ends; the e2e tests
// show them (e2e.test.ts, a broker stopped by SIGTERM and SIGINT leaves no server behind).

import { afterEach, describe, expect, it } from 'vitest';
import { signalGroup, signalProcess } from '../../src/upstream/reaper.js';
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
