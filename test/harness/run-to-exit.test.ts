// runToExit (harness/candidates/child.ts): a bounded one-shot command, such as a broker's pin,
// whose whole process group is gone afterwards whether it exited or overstayed.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToExit } from '../../harness/candidates/child.js';
import { isAlive } from '../../harness/observe/processes.js';
import { scratchFolders } from './scratch.js';

const scratch = scratchFolders('run-to-exit');

/** A script that starts a descendant ignoring SIGTERM, prints its pid on stderr, then `then`. */
const withDescendant = (then: string) =>
  `const c = require('node:child_process').spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1e9)"], { stdio: 'ignore' }); process.stderr.write(String(c.pid)); ${then}`;

describe('runToExit', () => {
  it('gives the exit code, writes stderr to the file and kills what the process left in its group', async () => {
    const dir = scratch();
    const stderrFile = join(dir, 'stderr');
    const status = await runToExit(process.execPath, ['-e', withDescendant("setTimeout(() => process.exit(3), 100);")], { cwd: dir, stderrFile, timeoutMs: 10_000 });
    expect(status).toEqual({ code: 3, signal: null, timedOut: false });
    const descendant = Number(readFileSync(stderrFile, 'utf8'));
    expect(descendant).toBeGreaterThan(0);
    await expect.poll(() => isAlive(descendant)).toBe(false);
  });

  it('kills a process that overstays its bound, with its group, and says it timed out', async () => {
    const dir = scratch();
    const stderrFile = join(dir, 'stderr');
    const status = await runToExit(process.execPath, ['-e', withDescendant('setInterval(() => {}, 1e9);')], { cwd: dir, stderrFile, timeoutMs: 1_000 });
    expect(status).toEqual({ code: null, signal: 'SIGKILL', timedOut: true });
    await expect.poll(() => isAlive(Number(readFileSync(stderrFile, 'utf8')))).toBe(false);
  });

  it('says why a command that does not exist never ran', async () => {
    const dir = scratch();
    const status = await runToExit('/no/such/command', [], { cwd: dir, stderrFile: join(dir, 'stderr'), timeoutMs: 1_000 });
    expect(status).toMatchObject({ code: null, signal: null, timedOut: false });
    expect(status.error).toContain('ENOENT');
  });
});
