import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASELINE, METRICS, metricOf, WORKLOADS, YARDSTICK, type Metric, type Workload } from './metrics.js';
import type { Cell, Summary } from './results.js';
import type { Spread } from './stats.js';
import type { Judgement } from './targets.js';
import { DROPPED_VARIABLES } from '../harness/run/environment.js';

/** The format this version writes: /2 added the CPU measures (format /1 has none) and the targets of issue 35. */
export const FORMAT = 'mcp-gauntlet-bench/2';
/** The formats it reads again (--from). */
export const READABLE_FORMATS: readonly string[] = ['mcp-gauntlet-bench/1', FORMAT];

/** How the run read CPU: the clock tick of /proc's times, or why it read none. */
export type CpuMethod = { ticksPerSecond: number } | { absent: string };

/** Everything one run found, as bench.json holds it and bench.md shows it. */
export interface BenchReport {
  format: typeof FORMAT;
  generatedAt: string;
  durationS: number;
  machine: { cpus: number; node: string; loadStart: number[]; loadEnd: number[]; loadHighest: number };
  options: Record<string, unknown>;
  roundsRun: number;
  candidates: Array<{ name: string; version: string }>;
  cpu: CpuMethod;
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

/** A cell of the results table: the median and range, then the ratio to the candidate the metric names. */
export function cellText(cell: Cell | undefined): string {
  if (cell?.spread === undefined) return '–';
  return cell.ratio === undefined ? spreadText(cell.spread) : `${spreadText(cell.spread)} · ${spreadText(cell.ratio, 'x')}`;
}

const compareText = { '<=': '≤', '>=': '≥', '<': '<' } as const;

/** A CPU measure beside a target: the median and range with its unit, or why there is none. */
function cpuText(judgement: Judgement, side: 'candidate' | 'yardstick'): string {
  const { target, cpu } = judgement;
  if (target.cpu === undefined) return '–';
  const spread = cpu?.[side];
  return spread === undefined ? 'not measured' : spreadText(spread, ` ${metricOf(target.cpu).unit}`);
}

/**
 * The must-show table: each target, the issue that set it and what its ratio is taken against,
 * what was measured (median over rounds of the per-round ratio, and range), met or not, and the
 * CPU measure of the reference and of the yardstick beside it (targets.ts): a wall-clock ratio
 * on a loaded machine is read with the CPU each spent.
 */
export function targetsTable(judgements: readonly Judgement[]): string {
  const rows = judgements.map((judgement) => {
    const { target, measured, met } = judgement;
    const unit = target.against === undefined ? '' : 'x';
    const value = measured === undefined ? 'not measured' : spreadText(measured, unit);
    const against = target.against === undefined ? 'the value' : `${target.against}, same round`;
    return `| ${target.issue} | ${target.text} | ${against} | ${compareText[target.compare]} ${target.threshold}${unit} | ${value} | ${met ? 'met' : '**not met**'} | ${cpuText(judgement, 'candidate')} | ${cpuText(judgement, 'yardstick')} |`;
  });
  return [
    `| issue | target | against | goal | measured: median (min–max) | | CPU, reference | CPU, ${YARDSTICK} (relays, checks nothing) |`,
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const metricHeading = (metric: Metric) => `${metric.label} (${metric.unit})${metric.ratioTo === undefined ? '' : ` · / ${metric.ratioTo}`}`;

/** One table per workload: a row per candidate, a column per metric (its wall-clock measures, then its CPU). */
function workloadTable(report: BenchReport, workload: Workload): string {
  const metrics = METRICS.filter((metric) => metric.workload === workload);
  const header = `| candidate | ${metrics.map(metricHeading).join(' | ')} |`;
  const rows = report.candidates.map(({ name }) => `| ${name} | ${metrics.map((metric) => cellText(report.summary[metric.id]?.[name])).join(' | ')} |`);
  return [header, `|---|${metrics.map(() => '---|').join('')}`, ...rows].join('\n');
}

function notesList(report: BenchReport, workload: Workload): string[] {
  return report.candidates.flatMap(({ name }) => (report.notes[name]?.[workload] ?? []).map((note) => `- ${name}: ${note}`));
}

/** How CPU was read, for the report: what is counted, on which calls, and how coarse it is; or why it was not read. */
function cpuMethodText(report: BenchReport): string {
  if ('absent' in report.cpu) return `CPU: not measured in this run: ${report.cpu.absent}.`;
  const warmUp = report.options.warmUp;
  return [
    `CPU: utime + stime + cutime + cstime of /proc/<pid>/stat, in clock ticks (${report.cpu.ticksPerSecond} a second), read by the bench (bench/cpu.ts). `,
    "A broker's CPU is that of the process its adapter started, of every descendant of it by ppid and of every member of its process group, ",
    "less the kit server and its descendants (their pids from the kit's launch records), whose CPU is the server's column; ",
    `${BASELINE} has no broker, so its server's CPU is the whole path's. `,
    `Per call: read before and after the measured sequential calls, which follow ${String(warmUp)} warm-up calls that are not measured (nor timed), `,
    'so first-call and JIT costs are out, and around the calls in flight; divided by the calls answered. Sequential latency and throughput are of the same warm calls. ',
    'start-up and load: all the broker\'s processes spent from spawn to the whole listing (and the server\'s in the same time), read once, in whole ticks. ',
    'A per-call measure of fewer than 50 ticks is noted with the share one tick is of it. The hung workload\'s calls spend less than a tick: no CPU is read for it.',
  ].join('');
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
    '## Targets',
    '',
    'Issue 35 re-based the targets of issue 11 on passthrough, measured in the same round as the reference: each is judged on the median over rounds of the per-round ratio, or of the value. Beside each, the CPU its workload cost the reference\'s processes and passthrough\'s.',
    '',
    targetsTable(report.targets),
    '',
    '## Results',
    '',
    `Each cell: median over rounds (min–max), then · the median of the per-round ratios (min–max) to the candidate its column names: ${BASELINE} for every wall-clock measure and the server's CPU, ${YARDSTICK} for a broker's CPU (${BASELINE} has no broker). ` +
      'A round that measured nothing is left out; the notes say why. Latencies are measured by the agent (harness/agent/client.ts) ' +
      'from sending a request to decoding its answer. "answer after the bound" is the time from the server writing the byte the broker ' +
      'names as its bound (the kit\'s `written` ledger marks, every MiB, on the monotonic clock) to the answer reaching the agent; ' +
      '"written when answered" is how much of the answer the server had written by then.',
    '',
    cpuMethodText(report),
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
