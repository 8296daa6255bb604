/**
 * `npm run bench`: every candidate side by side on the same workloads, in rounds, interleaved:
 * each round runs each workload on every candidate in turn (in an order that rotates from round
 * to round), so load on the machine weighs on all alike. Writes reports/bench.md and bench.json.
 * Every broker is reached as a process through its candidate adapter, as the suite reaches it.
 */
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCandidate } from '../harness/candidates/registry.js';
import type { Candidate } from '../harness/candidates/types.js';
import type { ToolRule } from '../harness/scenario/types.js';
import { packageRoot } from '../harness/paths.js';
import { dropMachineVariables } from '../harness/run/environment.js';
import { fillerTool, TOOLSETS } from '../servers/kit/tools.js';
import { clockTicksPerSecond, cpuInAll, cpuPerCall, readProcessTable, type CpuFigures } from './cpu.js';
import { BASELINE, cpuMetric, WORKLOADS, type Workload } from './metrics.js';
import { OptionError, parseOptions, USAGE, type BenchOptions } from './options.js';
import { readmeBlock, updateReadme } from './readme.js';
import { FORMAT, READABLE_FORMATS, targetsTable, writeReports, type BenchReport, type CpuMethod } from './report.js';
import { Results, summarise } from './results.js';
import { BenchSession, type ServerPlan } from './session.js';
import { judge, TARGETS } from './targets.js';
import { callsBehindHung, callsInFlight, HUNG_TOOL, sequentialCalls } from './workloads/calls.js';
import { largeAnswer, largeAnswerKnobs } from './workloads/large.js';

const OWN_TOOLS = TOOLSETS.notes.map((tool) => tool.name);
const CLASSIFIED: Record<string, ToolRule> = { search_notes: { effect: 'read_only' }, read_note: { effect: 'read_only' }, write_note: { effect: 'local_change' } };

/** The calls' session: the kit's three tools, write_note never answered. */
const CALLS_PLAN: ServerPlan = { knobs: { hang_on_call: HUNG_TOOL }, tools: CLASSIFIED };

/** The load's session: `tools` tools over `pages` pages, every one classified so a broker offers them all. */
function loadPlan(tools: number, pages: number): ServerPlan {
  const fillers = Array.from({ length: tools - OWN_TOOLS.length }, (_, i) => fillerTool(i + 1).name);
  return {
    knobs: { filler: String(fillers.length), page_size: String(Math.ceil(tools / pages)) },
    tools: { ...CLASSIFIED, ...Object.fromEntries(fillers.map((name): [string, ToolRule] => [name, { effect: 'read_only' }])) },
  };
}

class Bench {
  readonly results: Results;
  private highestLoad = loadavg()[0]!;
  private readonly deadline: number;
  /** Workload runs not started because the deadline had passed. */
  private skipped = 0;

  constructor(
    private readonly options: BenchOptions,
    private readonly candidates: ReadonlyMap<string, Candidate>,
  ) {
    this.results = new Results([...candidates.keys()], options.rounds);
    this.deadline = Date.now() + options.deadlineS * 1000;
  }

  private get timeoutMs() {
    return this.options.timeoutS * 1000;
  }

  /**
   * Runs one workload of one candidate in one round (for `start-up`, the whole session the calls'
   * workloads run in); a failure is that cell's note, and the run goes on.
   */
  private async attempt(name: string, workload: Workload, round: number, run: () => Promise<void>): Promise<void> {
    const started = Date.now();
    if (started > this.deadline) {
      this.skipped++;
      return;
    }
    try {
      await run();
    } catch (error) {
      this.results.note(name, workload, `round ${round + 1}: ${(error as Error).message.split('\n')[0]!.slice(0, 400)}`);
    }
    process.stderr.write(`bench: round ${round + 1} ${workload} ${name}: ${Date.now() - started} ms\n`);
  }

  /**
   * Records the CPU a workload cost, the broker's and the server's, with its notes. A candidate
   * other than direct whose processes were all gone has no broker CPU, and says so.
   */
  private recordCpu(name: string, workload: Workload, round: number, figures: CpuFigures | undefined): void {
    const { results } = this;
    for (const note of figures?.notes ?? []) results.note(name, workload, note);
    if (figures !== undefined && figures.broker === undefined && figures.server !== undefined && name !== BASELINE) {
      results.note(name, workload, 'no process of the broker was left to read CPU from');
    }
    for (const of of ['broker', 'server'] as const) {
      const metric = cpuMetric(workload, of);
      if (metric !== undefined) results.record(metric, name, round, figures?.[of] ?? null);
    }
  }

  private async calls(name: string, candidate: Candidate, round: number): Promise<void> {
    const { results, options } = this;
    const session = await BenchSession.open(candidate, CALLS_PLAN, this.timeoutMs);
    try {
      results.record('start-up.listed_ms', name, round, session.listedMs);
      this.recordCpu(name, 'start-up', round, cpuInAll(session.startUpCpu));
      const budgetMs = options.callBudgetS * 1000;
      await this.attempt(name, 'sequential', round, async () => {
        const { measured, notes } = await sequentialCalls(session, { calls: options.warmUp, budgetMs: options.warmUpBudgetS * 1000 }, options.calls, budgetMs);
        for (const note of notes) results.note(name, 'sequential', note);
        results.record('sequential.p50_ms', name, round, measured?.p50 ?? null);
        results.record('sequential.p99_ms', name, round, measured?.p99 ?? null);
        results.record('sequential.throughput', name, round, measured?.throughput ?? null);
        this.recordCpu(name, 'sequential', round, measured === undefined ? undefined : cpuPerCall(measured.cpu, measured.calls));
      });
      await this.attempt(name, 'in-flight', round, async () => {
        const { measured, notes } = await callsInFlight(session, options.calls, options.inFlight, budgetMs);
        for (const note of notes) results.note(name, 'in-flight', note);
        results.record('in-flight.throughput', name, round, measured?.throughput ?? null);
        this.recordCpu(name, 'in-flight', round, measured === undefined ? undefined : cpuPerCall(measured.cpu, measured.calls));
      });
      await this.attempt(name, 'hung', round, async () => {
        const { measured, notes } = await callsBehindHung(session, options.behind, this.timeoutMs);
        for (const note of notes) results.note(name, 'hung', note);
        results.record('hung.all_answered_ms', name, round, measured?.allAnsweredMs ?? null);
      });
    } finally {
      await session.close();
    }
  }

  private async load(name: string, candidate: Candidate, round: number): Promise<void> {
    const { results, options } = this;
    const session = await BenchSession.open(candidate, loadPlan(options.tools, options.pages), this.timeoutMs);
    try {
      if (session.listed < options.tools) results.note(name, 'load', `offered ${session.listed} of ${options.tools} tools`);
      results.record('load.listed_ms', name, round, session.listedMs);
      this.recordCpu(name, 'load', round, cpuInAll(session.startUpCpu));
      // Only a candidate that pins does work at pin time; the others' pin is a no-op.
      if (candidate.info.claims.includes('pinning')) results.record('load.pin_ms', name, round, session.pinMs);
    } finally {
      await session.close();
    }
  }

  private async large(name: string, candidate: Candidate, round: number): Promise<void> {
    const { results, options } = this;
    // The call is bounded by the bench's own wait, not by a broker's shorter default for the tool
    // (the server hashes the whole answer for its ledger before it writes the first byte): the
    // tool's rule allows twice as long.
    const largeTimeoutMs = options.largeTimeoutS * 1000;
    const tools = { ...CLASSIFIED, search_notes: { effect: 'read_only', timeout_ms: 2 * largeTimeoutMs } } satisfies Record<string, ToolRule>;
    const plan: ServerPlan = { knobs: largeAnswerKnobs(options.largeMib * 1024 * 1024), tools };
    const session = await BenchSession.open(candidate, plan, this.timeoutMs);
    try {
      const { measured, notes } = await largeAnswer(session, largeTimeoutMs);
      for (const note of notes) results.note(name, 'large', note);
      results.record('large.growth_mib', name, round, measured?.growthMib ?? null);
      results.record('large.after_bound_ms', name, round, measured?.afterBoundMs ?? null);
      results.record('large.written_mib', name, round, measured?.writtenMib ?? null);
    } finally {
      await session.close();
    }
  }

  /** Runs the rounds, each workload run started only before the deadline; returns how many rounds ran whole. */
  async run(): Promise<number> {
    const names = [...this.candidates.keys()];
    let whole = 0;
    for (let round = 0; round < this.options.rounds; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) await this.attempt(name, 'start-up', round, () => this.calls(name, this.candidates.get(name)!, round));
      for (const name of order) await this.attempt(name, 'load', round, () => this.load(name, this.candidates.get(name)!, round));
      for (const name of order) {
        if (name === BASELINE || round >= this.options.largeRounds) continue;
        await this.attempt(name, 'large', round, () => this.large(name, this.candidates.get(name)!, round));
      }
      this.highestLoad = Math.max(this.highestLoad, loadavg()[0]!);
      if (this.skipped === 0) whole++;
    }
    if (this.skipped > 0) this.results.note(BASELINE, 'start-up', `the ${this.options.deadlineS} s deadline passed: ${this.skipped} workload runs were not started, ${whole} of ${this.options.rounds} rounds ran whole`);
    this.results.note(BASELINE, 'large', 'no broker: there is no bound to cross and no broker memory to measure');
    return whole;
  }

  get loadHighest(): number {
    return this.highestLoad;
  }
}

async function main(): Promise<number> {
  // As the harness does: no candidate, and no server started directly, inherits them.
  dropMachineVariables();
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof OptionError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))) throw error;
    process.stderr.write(`bench: ${(error as Error).message}\nusage: ${USAGE}\n`);
    return 2;
  }
  if (options.from !== undefined) return showAgain(options.from, options);
  const started = Date.now();
  const loadStart = loadavg();
  const candidates = new Map<string, Candidate>();
  for (const name of options.candidates) candidates.set(name, await loadCandidate(name));
  const bench = new Bench(options, candidates);
  const roundsRun = await bench.run();
  for (const candidate of candidates.values()) await candidate.dispose?.();
  const summary = summarise(bench.results);
  const notes = Object.fromEntries(
    [...candidates.keys()].map((name) => [
      name,
      Object.fromEntries((Object.keys(WORKLOADS) as Workload[]).map((workload) => [workload, bench.results.notesOf(name, workload)]).filter(([, list]) => list!.length > 0)),
    ]),
  );
  const report: BenchReport = {
    format: FORMAT,
    generatedAt: new Date().toISOString(),
    durationS: (Date.now() - started) / 1000,
    machine: { cpus: cpus().length, node: process.versions.node, loadStart, loadEnd: loadavg(), loadHighest: bench.loadHighest },
    options: { ...options },
    roundsRun,
    candidates: [...candidates.entries()].map(([name, candidate]) => ({ name, version: candidate.info.version })),
    cpu: cpuMethod(),
    summary,
    notes,
    targets: judge(TARGETS, summary),
  };
  return publish(report, options);
}

/** Writes bench.md and bench.json, and the README's table when asked. */
async function publish(report: BenchReport, options: BenchOptions): Promise<number> {
  const dir = resolve(packageRoot, options.outDir);
  const written = await writeReports(dir, report);
  if (options.updateReadme) await updateReadme(join(packageRoot, 'README.md'), readmeBlock(report));
  process.stdout.write(`${targetsTable(report.targets)}\n\nbench: ${written.markdown} and ${written.json} from a run of ${Math.round(report.durationS)} s\n`);
  return 0;
}

/** How this machine lets the bench read CPU, or why it cannot (bench/cpu.ts). */
function cpuMethod(): CpuMethod {
  if (readProcessTable() === undefined) return { absent: 'there is no /proc to read processes from on this machine' };
  const ticksPerSecond = clockTicksPerSecond();
  return ticksPerSecond === undefined ? { absent: 'getconf CLK_TCK gave no clock tick, the unit of /proc times' } : { ticksPerSecond };
}

/**
 * A past run shown again: the same measurements, judged and written by this version's code. A
 * run of format /1 measured no CPU: its report says so, and every CPU cell is empty.
 */
async function showAgain(file: string, options: BenchOptions): Promise<number> {
  const past = JSON.parse(await readFile(resolve(file), 'utf8')) as Omit<BenchReport, 'format' | 'cpu'> & { format?: unknown; cpu?: CpuMethod };
  if (typeof past.format !== 'string' || !READABLE_FORMATS.includes(past.format)) {
    process.stderr.write(`bench: ${file} is not a bench.json of format ${READABLE_FORMATS.join(' or ')}\n`);
    return 2;
  }
  const cpu = past.cpu ?? { absent: `the run predates the CPU measure (a bench.json of format ${past.format})` };
  return publish({ ...past, format: FORMAT, cpu, targets: judge(TARGETS, past.summary) }, options);
}

process.exitCode = await main();
