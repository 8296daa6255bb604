import { readFile, writeFile } from 'node:fs/promises';
import { targetsTable, type BenchReport } from './report.js';

/** The markers around the README's generated benchmark table. */
export const README_START = '<!-- bench:start (npm run bench -- --update-readme) -->';
export const README_END = '<!-- bench:end -->';

/** What the README quotes of a run: when and how it ran, the targets with the CPU beside them, and where the rest is. */
export function readmeBlock(report: BenchReport): string {
  const cut = report.roundsRun < Number(report.options.rounds) ? ' (the rest cut by the deadline)' : '';
  const cpu = 'absent' in report.cpu ? ` CPU not measured: ${report.cpu.absent}.` : ` CPU read from /proc for the broker's processes, its server left out, on warm calls after ${String(report.options.warmUp)} unmeasured ones.`;
  return [
    `Measured ${report.generatedAt.slice(0, 10)}, ${report.roundsRun} of ${String(report.options.rounds)} rounds run whole${cut}, ${report.machine.cpus} cores (load average ${report.machine.loadStart[0]!.toFixed(2)} at the start); every candidate and workload in [reports/bench.md](reports/bench.md).${cpu}`,
    '',
    targetsTable(report.targets),
  ].join('\n');
}

/** The README with the text between the markers replaced by `block`; it must hold both markers, in order. */
export function replaceSection(readme: string, block: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${README_START} ... ${README_END} section`);
  return `${readme.slice(0, start + README_START.length)}\n${block}\n${readme.slice(end)}`;
}

export async function updateReadme(path: string, block: string): Promise<void> {
  await writeFile(path, replaceSection(await readFile(path, 'utf8'), block));
}
