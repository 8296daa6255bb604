/**
 * `npm run bench -- --from FILE`: a past run's bench.json shown again, its targets judged anew with
 * the yardstick beside them, measuring nothing; and the options that choose it.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dir } from 'tmp-promise';
import { afterEach, describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/options.js';
import type { BenchReport } from '../../bench/report.js';
import { packageRoot } from '../../harness/paths.js';
import { madeUpRun } from './made-up.js';

const run = promisify(execFile);
const BENCH = join(packageRoot, 'dist/bench/main.js');

/** A run as bench.json holds it, with targets as an older version wrote them: none. */
const pastRun = () => ({ ...madeUpRun({ direct: [0.2, 0.2], reference: [0.6, 0.8], passthrough: [0.25, 0.25] }), targets: [] });

describe('bench --from', () => {
  const folders: Array<{ cleanup(): Promise<void> }> = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await folder.cleanup();
  });
  async function folder(): Promise<string> {
    const made = await dir({ unsafeCleanup: true });
    folders.push(made);
    return made.path;
  }

  it('writes the reports again from the measurements, with the targets judged anew', async () => {
    const out = await folder();
    const source = join(out, 'past.json');
    await writeFile(source, JSON.stringify(pastRun()));
    const { stdout } = await run(process.execPath, [BENCH, '--from', source, '--out', out]);
    expect(stdout).toContain('| reference tools/call p50 / direct | ≤ 1.5x | 3.50x (3.00–4.00) | **not met** | 1.25x (1.25–1.25) |');
    const markdown = await readFile(join(out, 'bench.md'), 'utf8');
    expect(markdown).toContain('Written by `npm run bench` (bench/) on 2026-12-02T06:00:00.000Z, in 300 s');
    const json = JSON.parse(await readFile(join(out, 'bench.json'), 'utf8')) as BenchReport;
    expect(json.targets.find((judged) => judged.target.id === 'call-p50')).toMatchObject({ met: false, yardstick: { median: 1.25 } });
    expect(json.summary).toEqual(pastRun().summary);
  });

  it('refuses a file that is not a bench.json, writing nothing', async () => {
    const out = await folder();
    const source = join(out, 'other.json');
    await writeFile(source, JSON.stringify({ format: 'mcp-gauntlet-report/3' }));
    const failed = await run(process.execPath, [BENCH, '--from', source, '--out', out]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('not a bench.json');
    await expect(readFile(join(out, 'bench.md'))).rejects.toThrow();
  });

  it('is an option like the others, and absent unless given', () => {
    expect(parseOptions(['--from', 'reports/bench.json']).from).toBe('reports/bench.json');
    expect(parseOptions([])).not.toHaveProperty('from');
  });
});
