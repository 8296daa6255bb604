import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Candidate } from '../candidates/types.js';
import { packageRoot } from '../paths.js';
import { REPORT_FORMAT, summarise, type Report } from '../report/summary.js';
import type { Scenario } from '../scenario/types.js';
import { runScenario, type RunOptions } from './execute.js';
import { attachControlOutcomes } from './controls.js';
import type { CaseResult } from './outcome.js';

export const suiteVersion = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export interface SuiteOptions extends RunOptions {
  filter?: string;
  onStart?: (scenario: Scenario, index: number, total: number) => void;
  onCase?: (result: CaseResult, index: number, total: number) => void;
  /** Once aborted, no further scenario starts and the one in progress is left out: the report is incomplete. */
  interrupt?: AbortSignal;
}

/** Runs scenarios one at a time: hostile servers and brokers are processes, and order is stable. */
export async function runSuite(candidate: Candidate, scenarios: readonly Scenario[], options: SuiteOptions): Promise<Report> {
  const startedAt = new Date().toISOString();
  const cases: CaseResult[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    if (options.interrupt?.aborted) break;
    options.onStart?.(scenario, index, scenarios.length);
    const result = await runScenario(scenario, candidate, options);
    // A scenario cut short by the interrupt was not judged on what the candidate did.
    if (options.interrupt?.aborted) break;
    cases.push(result);
    options.onCase?.(result, index, scenarios.length);
  }
  attachControlOutcomes(cases);
  return {
    format: REPORT_FORMAT,
    suite: { name: 'mcp-gauntlet', version: suiteVersion },
    candidate: candidate.info,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    filter: options.filter ?? null,
    summary: summarise(cases),
    ...(options.interrupt?.aborted ? { incomplete: { reason: String(options.interrupt.reason), not_run: scenarios.slice(cases.length).map((s) => s.id) } } : {}),
    cases,
  };
}
