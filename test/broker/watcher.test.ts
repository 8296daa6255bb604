// The group watcher (src/upstream/watcher.ts) started by a compiled stand-in broker that is then
// killed outright: the watcher kills the whole group. group-watcher.test.ts runs the watcher from
// source in this process, for what needs no broker to die.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitDead } from './e2e-helpers.js';
import { killGroups, liveMembers, sleepingGroup } from './process-groups.js';

const WATCHER = resolve('dist/src/upstream/watcher.js');

afterEach(killGroups);

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
});
