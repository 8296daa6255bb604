// The steps of the composite GitHub Action (action.yml at the repository root) that are more than
// a line of shell: `run` starts `gauntlet run` with the action's inputs and gives its exit code and
// headline as the step's outputs; `summary` writes the headline into the job's summary. Both end
// 0 whatever the run gave, so that the report is uploaded and summarised before the action's last
// step ends with the run's own exit code.

import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { headlineMarkdown, headlineOf, noReportMarkdown, type HeadlineContext } from '../report/headline.js';
import type { Report } from '../report/summary.js';
import { packageRoot } from '../paths.js';

/**
 * The action's inputs that are `gauntlet run` options, each named as its option. An input reaches
 * the step as INPUT_<NAME> (upper case, `-` as `_`: a shell variable cannot hold a hyphen); an empty
 * one is left out, so the run's own default holds.
 */
export const RUN_OPTION_INPUTS = ['candidate', 'baseline', 'profile', 'filter', 'shard', 'step-timeout', 'jobs', 'scenario-budget', 'run-budget', 'report-dir'] as const;

export const inputVariable = (input: string): string => `INPUT_${input.toUpperCase().replace(/-/g, '_')}`;

/** The `gauntlet run` arguments the inputs ask for, the report folder made absolute. */
export function runArguments(env: NodeJS.ProcessEnv, reportDir: string): string[] {
  const args = ['run'];
  for (const input of RUN_OPTION_INPUTS) {
    const value = input === 'report-dir' ? reportDir : env[inputVariable(input)]?.trim();
    if (value) args.push(`--${input}`, value);
  }
  return args;
}

/** The exit code a run that ended on a signal, or never started, is given: nothing was judged. */
const NOT_JUDGED = 2;

/**
 * The report the run just wrote, or none. A report.json older than the run is an earlier run's
 * (a run refused before it starts leaves the folder as it was) and is not read as this one's.
 */
export function freshReport(reportDir: string, since: number): Report | undefined {
  const file = join(reportDir, 'report.json');
  const written = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  if (written === undefined || written < since) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Report;
}

/** Step outputs in the runner's `name=value` format; every value here is one line. */
function writeOutputs(outputs: Record<string, string | number>): void {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) throw new Error('GITHUB_OUTPUT is not set: this step runs inside a GitHub Actions job');
  appendFileSync(file, Object.entries(outputs).map(([name, value]) => `${name}=${value}\n`).join(''));
}

/** `run`: the run itself, in the step's working directory, so that brokers, adapters and reports resolve from the user's project. */
export async function runStep(): Promise<void> {
  const reportDir = resolve(process.env[inputVariable('report-dir')]?.trim() || 'gauntlet-report');
  const since = Date.now();
  // Bounded by the run's own budgets (--run-budget), and by the job's timeout above them.
  const result = await execa(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), ...runArguments(process.env, reportDir)], { stdio: 'inherit', reject: false });
  const exitCode = result.exitCode ?? NOT_JUDGED;
  const report = freshReport(reportDir, since);
  const numbers = report === undefined ? {} : Object.fromEntries(Object.entries(headlineOf(report)).map(([name, value]) => [name.replace(/_/g, '-'), value]));
  writeOutputs({ 'exit-code': exitCode, 'report-dir': reportDir, 'report-written': String(report !== undefined), ...numbers });
}

/** `summary`: the headline appended to the job's summary, with where the uploaded report is. */
export function summaryStep(): void {
  const { GITHUB_STEP_SUMMARY: summaryFile, REPORT_DIR: reportDir, REPORT_WRITTEN: written, UPLOAD_REPORT: uploaded, ARTIFACT_NAME: name, ARTIFACT_URL: url } = process.env;
  if (!summaryFile) throw new Error('GITHUB_STEP_SUMMARY is not set: this step runs inside a GitHub Actions job');
  const exitCode = /^\d+$/.test(process.env.EXIT_CODE ?? '') ? Number(process.env.EXIT_CODE) : NOT_JUDGED;
  const context: HeadlineContext = { exitCode, ...(uploaded === 'true' && name ? { artifact: { name, ...(url ? { url } : {}) } } : {}) };
  const report = written === 'true' && reportDir ? (JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report) : undefined;
  appendFileSync(summaryFile, `${report === undefined ? noReportMarkdown(context) : headlineMarkdown(report, context)}\n`);
}
