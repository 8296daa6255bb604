import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import type { Report } from '../../harness/report/summary.js';
import { REASON_PLACEHOLDER } from '../../harness/run/baseline.js';

const bin = join(packageRoot, 'bin', 'gauntlet.js');
const exec = promisify(execFile);

async function gauntlet(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await exec(process.execPath, [bin, ...args], { cwd: packageRoot, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
/** What a case was judged, without timings. */
const verdicts = (report: Report) =>
  report.cases.map((c) => ({ id: c.id, outcome: c.outcome, failure: c.failure, control_outcome: c.control_outcome, checks: c.findings.map((f) => f.check) }));

// Four attack families with their controls (withholding, classification, environment, inspection):
// a dozen scenarios, split across two shards, against the passthrough, which fails every attack.
const FILTER = '*-withheld';
const dir = mkdtempSync(join(tmpdir(), 'gauntlet-ci-'));
const at = (name: string) => join(dir, name);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sharded runs, their merge, and baselines', () => {
  beforeAll(async () => {
    const runs = await Promise.all([
      gauntlet('run', '--candidate', 'passthrough', '--filter', FILTER, '--report-dir', at('whole'), '--write-baseline', at('written.yaml')),
      gauntlet('run', '--candidate', 'passthrough', '--filter', FILTER, '--shard', '1/2', '--report-dir', at('shard-1')),
      gauntlet('run', '--candidate', 'passthrough', '--filter', FILTER, '--shard', '2/2', '--report-dir', at('shard-2')),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1]);
  }, 150_000);

  it('--shard 1/2 and --shard 2/2 merged give the same verdicts as one whole run', async () => {
    const [one, two] = [readReport(at('shard-1')), readReport(at('shard-2'))];
    expect(one.cases.length).toBeGreaterThan(0);
    expect(two.cases.length).toBeGreaterThan(0);
    const merged = await gauntlet('merge', '--report-dir', at('merged'), at('shard-2'), at('shard-1'));
    expect(merged.code).toBe(1);
    const whole = readReport(at('whole'));
    expect(verdicts(readReport(at('merged')))).toEqual(verdicts(whole));
    expect(readReport(at('merged')).summary).toEqual(whole.summary);
    expect(readFileSync(at('merged/report.md'), 'utf8')).toContain('Attacks held: 0 of');
  });

  it('writes a baseline whose placeholders a run refuses, and then holds the run to it', async () => {
    const written = readFileSync(at('written.yaml'), 'utf8');
    expect(written).toContain('wth.image-withheld');
    const reasoned = written.replaceAll(REASON_PLACEHOLDER, 'the passthrough forwards everything');
    writeFileSync(at('listed.yaml'), reasoned);
    writeFileSync(at('stale.yaml'), `${reasoned}  - scenario: wth.text-passes\n    check: call.text_includes\n    reason: it was broken once\n`);
    const [refused, listed, stale] = await Promise.all([
      gauntlet('run', '--candidate', 'passthrough', '--filter', 'wth.image-withheld', '--baseline', at('written.yaml'), '--report-dir', at('refused')),
      // A run of a listed failure (with its control) and nothing else passes.
      gauntlet('run', '--candidate', 'passthrough', '--filter', 'wth.image-withheld', '--baseline', at('listed.yaml'), '--report-dir', at('listed')),
      // A run in which a listed scenario passes fails, naming the stale entry.
      gauntlet('run', '--candidate', 'passthrough', '--filter', 'wth.text-passes', '--baseline', at('stale.yaml'), '--report-dir', at('stale')),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/placeholder reason.*wth\.image-withheld call\./);
    expect([listed.code, listed.stderr]).toEqual([0, expect.stringContaining('0 unexpected, 0 stale')]);
    expect(readReport(at('listed')).summary).toMatchObject({ expected_failures: 1, unexpected_failures: 0, stale_entries: 0 });
    expect(readFileSync(at('listed/report.md'), 'utf8')).toMatch(/0 unexpected failing case\(s\), 1 expected/);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('stale baseline entry (no-longer-fails): wth.text-passes call.text_includes');
    expect(readFileSync(at('stale/report.md'), 'utf8')).toContain('| wth.text-passes | call.text_includes | no-longer-fails |');
  }, 120_000);
});
