/**
 * `npm run bench -- --from FILE`: a past run's bench.json shown again, its targets judged anew with
 * the CPU beside them, measuring nothing (a run of format /1, which measured no CPU, shown with
 * the CPU absent); and the options that choose it.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { parseOptions } from '../../bench/options.js';
import type { BenchReport } from '../../bench/report.js';
import { packageRoot } from '../../harness/paths.js';
import { madeUpRun } from './made-up.js';

const run = promisify(execFile);
const BENCH = join(packageRoot, 'dist/bench/main.js');

/** A run as bench.json holds it, with targets as an older version wrote them: none. */
const pastRun = () => ({
  ...madeUpRun({ direct: [0.2, 0.2], reference: [0.6, 0.8], passthrough: [0.25, 0.25] }, {}, { 'sequential.cpu_us': { reference: [600, 700], passthrough: [100, 100] } }),
  targets: [],
});

/** A run as format /1 held it: no CPU measure at all, and the targets of issue 11 as it judged them. */
function formatOneRun(): Record<string, unknown> {
  const { cpu: _cpu, summary, ...rest } = madeUpRun({ direct: [0.2, 0.2], reference: [0.6, 0.8], passthrough: [0.5, 0.5] });
  const withoutCpu = Object.fromEntries(Object.entries(summary).filter(([metric]) => !metric.includes('cpu')));
  return { ...rest, format: 'mcp-gauntlet-bench/1', summary: withoutCpu, targets: [{ target: { id: 'call-p50', text: 'reference tools/call p50 / direct' }, met: false }] };
}

describe('bench --from', () => {
  const folder = tempDirs('bench-from-');
  /** A fresh output folder holding `value` as the file `name`, the run to show again. */
  async function written(name: string, value: unknown): Promise<{ out: string; source: string }> {
    const out = folder();
    const source = join(out, name);
    await writeFile(source, JSON.stringify(value));
    return { out, source };
  }

  it('writes the reports again from the measurements, with the targets judged anew', async () => {
    const { out, source } = await written('past.json', pastRun());
    const { stdout } = await run(process.execPath, [BENCH, '--from', source, '--out', out]);
    expect(stdout).toContain('| 35 | reference tools/call p50 | passthrough, same round | ≤ 1.25x | 2.80x (2.40–3.20) | **not met** | 650 µs/call (600–700) | 100 µs/call (100–100) |');
    const markdown = await readFile(join(out, 'bench.md'), 'utf8');
    expect(markdown).toContain('Written by `npm run bench` (bench/) on 2026-12-02T06:00:00.000Z, in 300 s');
    const json = JSON.parse(await readFile(join(out, 'bench.json'), 'utf8')) as BenchReport;
    expect(json.targets.find((judged) => judged.target.id === 'call-p50')).toMatchObject({ met: false, measured: { median: 2.8 }, cpu: { candidate: { median: 650 } } });
    expect(json.summary).toEqual(pastRun().summary);
  });

  it('shows a run of format /1 again with the targets of issue 35 and the CPU absent, said as such', async () => {
    const { out, source } = await written('format-1.json', formatOneRun());
    const { stdout } = await run(process.execPath, [BENCH, '--from', source, '--out', out]);
    // p50 1.2x and 1.6x passthrough's in the two rounds; no CPU beside it.
    expect(stdout).toContain('| 35 | reference tools/call p50 | passthrough, same round | ≤ 1.25x | 1.40x (1.20–1.60) | **not met** | not measured | not measured |');
    expect(stdout).toContain('| 35 | reference broker CPU per warm call | passthrough, same round | ≤ 2x | not measured | **not met** |');
    const markdown = await readFile(join(out, 'bench.md'), 'utf8');
    expect(markdown).toContain('CPU: not measured in this run: the run predates the CPU measure (a bench.json of format mcp-gauntlet-bench/1).');
    expect(markdown).toContain('| reference | 0.700 (0.600–0.800) · 3.50x (3.00–4.00) | – | – | – | – |');
    const json = JSON.parse(await readFile(join(out, 'bench.json'), 'utf8')) as BenchReport;
    expect(json.format).toBe('mcp-gauntlet-bench/2');
    expect(json.cpu).toEqual({ absent: 'the run predates the CPU measure (a bench.json of format mcp-gauntlet-bench/1)' });
  });

  it('refuses a file that is not a bench.json, writing nothing', async () => {
    const { out, source } = await written('other.json', { format: 'mcp-gauntlet-report/3' });
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

  it('takes the warm-up and the measured calls as options, by default 2,000 and 10,000', () => {
    expect(parseOptions([])).toMatchObject({ warmUp: 2000, calls: 10000, warmUpBudgetS: 4 });
    expect(parseOptions(['--warm-up', '10', '--calls', '20', '--warm-up-budget-s', '1'])).toMatchObject({ warmUp: 10, calls: 20, warmUpBudgetS: 1 });
    expect(() => parseOptions(['--warm-up', '0'])).toThrow(/--warm-up takes a whole number >= 1/);
  });
});
