import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Candidate } from '../candidates/types.js';
import { packageRoot } from '../paths.js';
import { REPORT_FORMAT, summarise, timingOf, type Report } from '../report/summary.js';
import type { Scenario } from '../scenario/types.js';
import { DEFAULT_RUN_BUDGET_MS, DEFAULT_SCENARIO_BUDGET_MS, deadline, NOT_RUN, SilenceWatch } from './budget.js';
import { caseHeader, runScenario, type RunOptions } from './execute.js';
import { attachControlOutcomes } from './controls.js';
import { runPool } from './pool.js';
import { runsAlone } from './alone.js';
import type { CaseResult } from './outcome.js';
import { noTranscript } from './transcript.js';

export const suiteVersion = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export interface SuiteOptions extends Omit<RunOptions, 'signal'> {
  filter?: string;
  /** How many scenarios run at once (default 1 here; the command line's default is `defaultJobs()`). */
  jobs?: number;
  /** The most one scenario may take, all its steps together (DEFAULT_SCENARIO_BUDGET_MS). */
  scenarioBudgetMs?: number;
  /** The most the whole run may take (DEFAULT_RUN_BUDGET_MS). */
  runBudgetMs?: number;
  /** Called as each scenario starts, in catalogue order; with several jobs, several are running. */
  onStart?: (scenario: Scenario, index: number, total: number) => void;
  /** Called as each scenario finishes, in the order they finish; `index` is its place in the catalogue. */
  onCase?: (result: CaseResult, index: number, total: number) => void;
  /** Once aborted, no further scenario starts and the one in progress is left out: the report is incomplete. */
  interrupt?: AbortSignal;
}

/** A scenario a budget or the silence rule kept from running: an `error` that says why, never a pass. */
function notRun(scenario: Scenario, candidate: Candidate, reason: string): CaseResult {
  return { ...caseHeader(scenario, candidate), outcome: 'error', duration_ms: 0, findings: [], unchecked: [], notes: [], transcript: noTranscript(), reason };
}

/**
 * Runs scenarios on a pool of `jobs` workers. Each scenario has its own directory, ledger, canary,
 * servers and broker processes (runScenario), so they share nothing but the candidate object,
 * which starts a fresh broker per session (a protocol adapter's requests are sent one at a time:
 * adapter-process.ts). The report lists cases in the scenarios' order whatever order they finished
 * in, so a run with any number of jobs gives the same report as one at a time, timings aside.
 */
export async function runSuite(candidate: Candidate, scenarios: readonly Scenario[], options: SuiteOptions): Promise<Report> {
  const startedAt = new Date();
  const scenarioBudgetMs = options.scenarioBudgetMs ?? DEFAULT_SCENARIO_BUDGET_MS;
  const runBudgetMs = options.runBudgetMs ?? DEFAULT_RUN_BUDGET_MS;
  const jobs = options.jobs ?? 1;
  const run = deadline(runBudgetMs, `the run budget of ${runBudgetMs} ms was spent before this scenario finished (--run-budget)`);
  const silence = new SilenceWatch();
  const { onStart, onCase } = options;
  try {
    // A scenario not started or cut short by the interrupt is left out: it was not judged on what
    // the candidate did, and the report names it as not run.
    const { interrupt } = options;
    const ran = await runPool(scenarios, jobs, async (scenario, index): Promise<CaseResult | undefined> => {
      if (interrupt?.aborted) return undefined;
      onStart?.(scenario, index, scenarios.length);
      const stopped = run.signal.aborted ? `${NOT_RUN}: the run budget of ${runBudgetMs} ms was spent before this scenario started (--run-budget)` : silence.reason;
      let result: CaseResult;
      if (stopped !== undefined) {
        result = notRun(scenario, candidate, stopped);
      } else {
        const own = deadline(scenarioBudgetMs, `the scenario budget of ${scenarioBudgetMs} ms was spent (--scenario-budget)`);
        try {
          result = await runScenario(scenario, candidate, { ...options, signal: AbortSignal.any([own.signal, run.signal, ...(interrupt ? [interrupt] : [])]) });
        } finally {
          own.clear();
        }
      }
      if (interrupt?.aborted) return undefined;
      silence.record(result);
      onCase?.(result, index, scenarios.length);
      return result;
    }, runsAlone);
    const cases = ran.filter((result): result is CaseResult => result !== undefined);
    attachControlOutcomes(cases);
    const finishedAt = new Date();
    return {
      format: REPORT_FORMAT,
      suite: { name: 'mcp-gauntlet', version: suiteVersion },
      candidate: candidate.info,
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      filter: options.filter ?? null,
      summary: summarise(cases),
      ...(interrupt?.aborted ? { incomplete: { reason: String(interrupt.reason), not_run: scenarios.filter((_, index) => ran[index] === undefined).map((s) => s.id) } } : {}),
      timing: timingOf(cases, { wallMs: finishedAt.getTime() - startedAt.getTime(), jobs, scenarioBudgetMs, runBudgetMs }),
      cases,
    };
  } finally {
    run.clear();
  }
}
