import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';

const script = join(packageRoot, 'scripts', 'loaded.mjs');

/** The command reports the script's children while it runs (the spinners and itself), then exits 3. */
const LIST_SIBLINGS = `
const { readFileSync } = require('node:fs');
const parent = process.ppid;
console.log(readFileSync('/proc/' + parent + '/task/' + parent + '/children', 'utf8').trim());
process.exit(3);`;

function loaded(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [script, ...args], { timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('scripts/loaded.mjs', () => {
  it.runIf(existsSync('/proc/self/task'))('runs the command beside the busy processes, passes its exit code on, and leaves none of them running', async () => {
    const { code, stdout, stderr } = await loaded('--busy', '3', '--max-seconds', '60', '--', process.execPath, '-e', LIST_SIBLINGS);
    expect(code).toBe(3);
    const spinners = stderr.match(/pids ([\d ]+)\)/)?.[1]?.split(' ').map(Number) ?? [];
    expect(spinners).toHaveLength(3);
    // While the command ran, the spinners were running beside it.
    const siblings = stdout.trim().split(/\s+/).map(Number);
    expect(siblings).toEqual(expect.arrayContaining(spinners));
    expect(stderr).toMatch(/^loaded: 3 busy processes \(pids [\d ]+\) on \d+ cores; the command exited with 3 after [\d.]+ s; 1-minute load average from [\d.]+ to [\d.]+\n$/);
    // Killed and reaped before the script exits.
    for (const pid of spinners) expect(existsSync(`/proc/${pid}`), `spinner ${pid}`).toBe(false);
  });

  it('refuses a command line without a command, or a count that is not a positive whole number', async () => {
    expect(await loaded()).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: node scripts/loaded.mjs') });
    expect(await loaded('--busy', '0', '--', 'true')).toMatchObject({ code: 2, stderr: expect.stringContaining('--busy must be a positive whole number, not 0') });
  });
});
