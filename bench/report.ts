import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASELINE, METRICS, WORKLOADS, type Metric, type Workload } from './metrics.js';
import type { Cell, Summary } from './results.js';
import type { Spread } from './stats.js';
import { YARDSTICK, type Judgement } from './targets.js';
import { DROPPED_VARIABLES } from '../harness/run/environment.js';

/** Everything one run found, as bench.json holds it and bench.md shows it. */
export interface BenchReport {
  format: 'mcp-gauntlet-bench/1';
  generatedAt: string;
  durationS: number;
  machine: { cpus: number; node: string; loadStart: number[]; loadEnd: number[]; loadHighest: number };
  options: Record<string, unknown>;
  roundsRun: number;
  candidates: Array<{ name: string; version: string }>;
  summary: Summary;
  notes: Record<string, Partial<Record<Workload, string[]>>>;
  targets: Judgement[];
}

/** A number with as many digits as its size calls for. */
export function figure(value: number): string {
  const size = Math.abs(value);
  const digits = size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3;
  return value.toFixed(digits);
}

const spreadText = (spread: Spread, unit = ''): string =>
  spread.n === 1 ? `${figure(spread.median)}${unit}` : `${figure(spread.median)}${unit} (${figure(spread.min)}–${figure(spread.max)})`;

/** A cell of the results table: the median and range, then the ratio to direct. */
export function cellText(cell: Cell | undefined): string {
  if (cell?.spread === undefined) return '–';
  return cell.ratio === undefined ? spreadText(cell.spread) : `${spreadText(cell.spread)} · ${spreadText(cell.ratio, 'x')}`;
}

const compareText = { '<=': '≤', '>=': '≥', '<': '<' } as const;

/**
 * The must-show table: each target, what was measured (median over rounds, and range), met or
 * not, and the same measure of the yardstick (targets.ts), so that a reader sees how much of a
 * miss a second process alone already costs.
 */
export function targetsTable(judgements: readonly Judgement[]): string {
  const rows = judgements.map(({ target, measured, met, yardstick }) => {
    const unit = target.of === 'ratio' ? 'x' : '';
    const value = measured === undefined ? 'not measured' : spreadText(measured, unit);
    return `| ${target.text} | ${compareText[target.compare]} ${target.threshold}${unit} | ${value} | ${met ? 'met' : '**not met**'} | ${yardstick === undefined ? '–' : spreadText(yardstick, unit)} |`;
  });
  return [`| target | goal | measured: median (min–max) | | ${YARDSTICK}, same run (relays, checks nothing) |`, '|---|---|---|---|---|', ...rows].join('\n');
}

const metricHeading = (metric: Metric) => `${metric.label} (${metric.unit})`;

/** One table per workload: a row per candidate, a column per metric. */
function workloadTable(report: BenchReport, workload: Workload): string {
  const metrics = METRICS.filter((metric) => metric.workload === workload);
  const header = `| candidate | ${metrics.map(metricHeading).join(' | ')} |`;
  const rows = report.candidates.map(({ name }) => `| ${name} | ${metrics.map((metric) => cellText(report.summary[metric.id][name])).join(' | ')} |`);
  return [header, `|---|${metrics.map(() => '---|').join('')}`, ...rows].join('\n');
}

function notesList(report: BenchReport, workload: Workload): string[] {
  return report.candidates.flatMap(({ name }) => (report.notes[name]?.[workload] ?? []).map((note) => `- ${name}: ${note}`));
}

const loadText = (load: number[]) => load.map((value) => value.toFixed(2)).join(' / ');

export function renderMarkdown(report: BenchReport): string {
  const { machine, options } = report;
  const sections = (Object.keys(WORKLOADS) as Workload[]).flatMap((workload) => {
    const notes = notesList(report, workload);
    return [`### ${workload}: ${WORKLOADS[workload]}`, '', workloadTable(report, workload), ...(notes.length === 0 ? [] : ['', ...notes]), ''];
  });
  return [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (bench/) on ${report.generatedAt}, in ${Math.round(report.durationS)} s: ${report.roundsRun} of ${String(options.rounds)} rounds ran whole, ` +
      `each running every candidate on every workload, interleaved so that load on the machine weighs on all alike. ` +
      `${machine.cpus} cores, Node ${machine.node}; load average (1 / 5 / 15 min) ${loadText(machine.loadStart)} at the start, ` +
      `${loadText(machine.loadEnd)} at the end, highest 1-min ${machine.loadHighest.toFixed(2)} between rounds.`,
    '',
    `Options: ${Object.entries(options).map(([name, value]) => `${name} ${Array.isArray(value) ? value.join(',') : String(value)}`).join('; ')}.`,
    '',
    `Environment: every process, \`direct\`'s server included, starts without ${DROPPED_VARIABLES.map((name) => `\`${name}\``).join(', ')} (harness/run/environment.ts): left in, it would make every Node start parse a certificate bundle, a cost \`direct\`'s server pays and the reference's server, started with a minimal environment, does not.`,
    '',
    '## Targets (issue 11)',
    '',
    targetsTable(report.targets),
    '',
    '## Results',
    '',
    `Each cell: median over rounds (min–max), then · the median of the per-round ratios to ${BASELINE} (min–max). ` +
      'A round that measured nothing is left out; the notes say why. Latencies are measured by the agent (harness/agent/client.ts) ' +
      'from sending a request to decoding its answer. "answer after the bound" is the time from the server writing the byte the broker ' +
      'names as its bound (the kit\'s `written` ledger marks, every MiB, on the monotonic clock) to the answer reaching the agent; ' +
      '"written when answered" is how much of the answer the server had written by then.',
    '',
    ...sections,
  ].join('\n');
}

export async function writeReports(dir: string, report: BenchReport): Promise<{ markdown: string; json: string }> {
  await mkdir(dir, { recursive: true });
  const markdown = join(dir, 'bench.md');
  const json = join(dir, 'bench.json');
  await writeFile(markdown, renderMarkdown(report));
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  return { markdown, json };
}
