import type { Answer } from '../../harness/agent/client.js';
import { callsTo } from '../../harness/observe/ledger.js';
import { elapsedMs, now } from '../clock.js';
import type { CpuSpent } from '../cpu.js';
import { describeAnswer, type BenchSession } from '../session.js';
import { percentile } from '../stats.js';

/** The cheap tool: the kit answers it with one short line, doing nothing else. */
export const CHEAP_TOOL = 'search_notes';
const CHEAP_ARGS = { query: 'budget' };
/** The tool the kit never answers in the calls' session (`hang_on_call`). */
export const HUNG_TOOL = 'write_note';

/** What a run of calls gives: the measurements, or why there are none, and notes either way. */
export interface Outcome<T> {
  measured?: T;
  notes: string[];
}

const isAnswered = (answer: Answer): boolean => answer.kind === 'result' && answer.result.isError !== true;

/** How many of the answers were not a plain result, with the first of them, as a note. */
function failures(answers: readonly Answer[]): string | undefined {
  const failed = answers.filter((answer) => !isAnswered(answer));
  return failed.length === 0 ? undefined : `${failed.length} of ${answers.length} calls not answered with a result (first: ${describeAnswer(failed[0]!)})`;
}

/** What a run of calls measured besides its own figures: how many calls were answered, and the CPU they cost. */
export interface CallsCpu {
  calls: number;
  cpu: CpuSpent;
}

/** `count` calls one after another, or as many as `budgetMs` allows, each timed. */
async function oneAfterAnother(session: BenchSession, count: number, budgetMs: number): Promise<{ latencies: number[]; answers: Answer[]; totalMs: number }> {
  const name = session.offered(CHEAP_TOOL);
  const latencies: number[] = [];
  const answers: Answer[] = [];
  const start = now();
  while (answers.length < count && elapsedMs(start) < budgetMs) {
    const sent = now();
    const answer = await session.client.callTool(name, CHEAP_ARGS);
    latencies.push(elapsedMs(sent));
    answers.push(answer);
    if (answer.kind === 'closed') break;
  }
  return { latencies, answers, totalMs: elapsedMs(start) };
}

/** Calls made and measured in nothing, each run bounded by its own budget. */
export interface WarmUp {
  calls: number;
  budgetMs: number;
}

/**
 * The warm-up's calls one after another, measured in nothing, so that first-call and JIT costs
 * are out; then `count` more, bounded by `budgetMs`: their latency percentiles, throughput and
 * the CPU they cost.
 */
export async function sequentialCalls(session: BenchSession, warmUp: WarmUp, count: number, budgetMs: number): Promise<Outcome<{ p50: number; p99: number; throughput: number } & CallsCpu>> {
  const warm = await oneAfterAnother(session, warmUp.calls, warmUp.budgetMs);
  const warmFailed = failures(warm.answers);
  if (warmFailed !== undefined) return { notes: [`warm-up: ${warmFailed}`] };
  const notes = warm.answers.length < warmUp.calls ? [`partial warm-up: ${warm.answers.length} of ${warmUp.calls} calls within its ${warmUp.budgetMs / 1000} s budget`] : [];
  const { result: run, cpu } = await session.cpuAcross(() => oneAfterAnother(session, count, budgetMs));
  const { latencies, answers, totalMs } = run;
  const failed = failures(answers);
  if (failed !== undefined) return { notes: [...notes, failed] };
  if (answers.length < count) notes.push(`partial: ${answers.length} of ${count} sequential calls within the ${budgetMs / 1000} s budget`);
  return { measured: { p50: percentile(latencies, 50)!, p99: percentile(latencies, 99)!, throughput: answers.length / (totalMs / 1000), calls: answers.length, cpu }, notes };
}

/** `count` calls with `inFlight` of them outstanding at all times, or as many as `budgetMs` allows: throughput and the CPU they cost. */
export async function callsInFlight(session: BenchSession, count: number, inFlight: number, budgetMs: number): Promise<Outcome<{ throughput: number } & CallsCpu>> {
  const name = session.offered(CHEAP_TOOL);
  const answers: Answer[] = [];
  let sent = 0;
  const worker = async (start: bigint) => {
    while (sent < count && elapsedMs(start) < budgetMs) {
      sent++;
      const answer = await session.client.callTool(name, CHEAP_ARGS);
      answers.push(answer);
      if (answer.kind === 'closed') return;
    }
  };
  const { result: totalMs, cpu } = await session.cpuAcross(async () => {
    const start = now();
    await Promise.all(Array.from({ length: inFlight }, () => worker(start)));
    return elapsedMs(start);
  });
  const failed = failures(answers);
  if (failed !== undefined) return { notes: [failed] };
  const notes = answers.length < count ? [`partial: ${answers.length} of ${count} calls (${inFlight} in flight) within the ${budgetMs / 1000} s budget`] : [];
  return { measured: { throughput: answers.length / (totalMs / 1000), calls: answers.length, cpu }, notes };
}

/** How often the ledger is read while waiting for the hung call to reach the server: readiness, not a trigger. */
const LEDGER_POLL_MS = 5;

/**
 * One call the server never answers, and once the server has it (its ledger says so) `behind`
 * calls sent at once: the time until all of them are answered. The hung call stays unanswered;
 * closing the session ends it.
 */
export async function callsBehindHung(session: BenchSession, behind: number, timeoutMs: number): Promise<Outcome<{ allAnsweredMs: number }>> {
  void session.client.callTool(session.offered(HUNG_TOOL), { id: 1, text: 'held' }, { timeoutMs });
  const deadline = Date.now() + timeoutMs;
  while (callsTo(session.ledger.read(), HUNG_TOOL).length === 0) {
    if (Date.now() > deadline) return { notes: [`the hung call did not reach the server within ${timeoutMs} ms`] };
    await new Promise((resolve) => setTimeout(resolve, LEDGER_POLL_MS));
  }
  const name = session.offered(CHEAP_TOOL);
  const start = now();
  const answers = await Promise.all(Array.from({ length: behind }, () => session.client.callTool(name, CHEAP_ARGS, { timeoutMs })));
  const allAnsweredMs = elapsedMs(start);
  const failed = failures(answers);
  return failed === undefined ? { measured: { allAnsweredMs }, notes: [] } : { notes: [failed] };
}
