import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { UsageError } from '../../harness/run/options.js';
import { claimReportDir, REPORT_LOCK } from '../../harness/run/report-dir.js';
import { scratchFolders } from './scratch.js';

const folder = scratchFolders('gauntlet-report-dir');
const bin = join(packageRoot, 'bin', 'gauntlet.js');

/** The id of a process that has ended: one started and waited for. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid;

describe('claiming a report folder', () => {
  it('locks it for this run and clears the report a previous run left', () => {
    const dir = folder();
    writeFileSync(join(dir, 'report.json'), '{}');
    claimReportDir(dir);
    expect(JSON.parse(readFileSync(join(dir, REPORT_LOCK), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  it('refuses a folder a live run holds, naming the folder and the run, and leaves its report alone', () => {
    const dir = folder();
    // The process that started this test is alive for as long as the test runs.
    writeFileSync(join(dir, REPORT_LOCK), JSON.stringify({ pid: process.ppid, started: '2026-12-06T00:00:00.000Z' }));
    writeFileSync(join(dir, 'report.json'), '{}');
    expect(() => claimReportDir(dir)).toThrow(UsageError);
    expect(() => claimReportDir(dir)).toThrow(`the report folder ${dir} is being written by the run with pid ${process.ppid}`);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  });

  it.each([
    ['a run that died without releasing it', () => JSON.stringify({ pid: deadPid(), started: '2026-12-06T00:00:00.000Z' })],
    ['nothing readable', () => 'not a lock'],
  ])('takes over a lock left by %s', (_what, content) => {
    const dir = folder();
    writeFileSync(join(dir, REPORT_LOCK), content());
    claimReportDir(dir);
    expect(JSON.parse(readFileSync(join(dir, REPORT_LOCK), 'utf8'))).toMatchObject({ pid: process.pid });
  });
});

/** Resolves with what the process has written to stderr once it contains `text`; a process that ends first rejects. */
function whenStderr(child: ReturnType<typeof spawn>, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve(seen);
    });
    child.once('exit', () => reject(new Error(`ended before writing ${JSON.stringify(text)}: ${seen}`)));
  });
}

describe('two runs into one report folder', () => {
  it('refuses the second at once (exit 2) and releases the folder when the first is interrupted', async () => {
    const dir = folder();
    const reportDir = join(dir, 'out');
    // An adapter whose factory never settles holds its run at loading the candidate, after the claim.
    const adapter = join(dir, 'never.mjs');
    writeFileSync(adapter, 'setInterval(() => {}, 60_000);\nexport default () => new Promise(() => {});\n');
    const first = spawn(process.execPath, [bin, 'run', '--candidate', adapter, '--filter', 'pin.description-reworded', '--report-dir', reportDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    const ended = new Promise<number | null>((resolve) => first.once('exit', (code) => resolve(code)));
    try {
      // The lock is taken before the candidate is loaded: wait for it, bounded.
      for (const until = Date.now() + 60_000; !existsSync(join(reportDir, REPORT_LOCK)); ) {
        if (Date.now() > until) throw new Error('the first run never locked its report folder');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const second = spawnSync(process.execPath, [bin, 'run', '--candidate', 'passthrough', '--filter', 'pin.description-reworded', '--report-dir', reportDir], { encoding: 'utf8', timeout: 60_000 });
      expect(second.status).toBe(2);
      expect(second.stderr).toContain(`the report folder ${reportDir} is being written by the run with pid ${first.pid}`);
      // The first signal asks the run to stop; the second, after it said so, ends it at once.
      const stopping = whenStderr(first, 'stopping');
      first.kill('SIGINT');
      await stopping;
      first.kill('SIGINT');
      expect(await ended).toBe(2);
      expect(existsSync(join(reportDir, REPORT_LOCK))).toBe(false);
    } finally {
      first.kill('SIGKILL');
    }
  });
});
