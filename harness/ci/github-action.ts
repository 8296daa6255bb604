// The steps of the composite GitHub Action (action.yml at the repository root) that are more than
// a line of shell: `run` starts `gauntlet run` (or `gauntlet merge`) with the action's inputs and
// gives its exit code and headline as the step's outputs; `summary` writes the headline into the
// job's summary. Both end 0 whatever the run gave (only a step that cannot do its own part fails),
// so that the report is uploaded and summarised before the action's last step ends with the run's
// own exit code.

import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { headlineMarkdown, headlineOf, noReportMarkdown, type HeadlineContext } from '../report/headline.js';
import type { Report } from '../report/summary.js';
import { packageRoot } from '../paths.js';

/**
 * The action's inputs that are `gauntlet run` options, each named as its option. An input reaches
 * the step as INPUT_<NAME> (upper case, `-` as `_`: a shell variable cannot hold a hyphen); an empty
 * one is left out, so the run's own default holds.
 */
export const RUN_OPTION_INPUTS = ['candidate', 'baseline', 'profile', 'filter', 'shard', 'step-timeout', 'jobs', 'scenario-budget', 'run-budget', 'report-dir'] as const;

/** Those that are `gauntlet merge` options too: a merge judges shards that have already run. */
const MERGE_OPTION_INPUTS: ReadonlySet<string> = new Set(['baseline', 'report-dir']);

export const inputVariable = (input: string): string => `INPUT_${input.toUpperCase().replace(/-/g, '_')}`;

/** An input's value, trimmed, or undefined when it was left empty. */
const inputOf = (env: NodeJS.ProcessEnv, input: string): string | undefined => env[inputVariable(input)]?.trim() || undefined;

/** Thrown for inputs the action cannot run with; the step gives exit 2 with its message. */
export class InputError extends Error {}

/**
 * The `gauntlet` arguments the inputs ask for, the report folder made absolute: a run, or with
 * `merge-from` (a folder holding one report folder per shard, as actions/download-artifact writes
 * them for a pattern) the merge of those shards. An input that only a run takes is refused beside
 * `merge-from` rather than dropped, and a run needs its candidate named: the CLI's default (the
 * reference broker) would pass for the caller's broker.
 */
export function gauntletArguments(env: NodeJS.ProcessEnv, reportDir: string): string[] {
  const mergeFrom = inputOf(env, 'merge-from');
  const given = RUN_OPTION_INPUTS.filter((input) => input !== 'report-dir' && inputOf(env, input) !== undefined);
  const options = (inputs: readonly string[]) => inputs.flatMap((input) => [`--${input}`, input === 'report-dir' ? reportDir : (inputOf(env, input) as string)]);
  if (mergeFrom === undefined) {
    if (inputOf(env, 'candidate') === undefined) throw new InputError('the candidate input is required to run: a built-in candidate\'s name or your adapter\'s path');
    return ['run', ...options([...given, 'report-dir'])];
  }
  const runOnly = given.filter((input) => !MERGE_OPTION_INPUTS.has(input));
  if (runOnly.length > 0) throw new InputError(`merge-from merges shards that have already run; ${runOnly.join(', ')} belong to the shards' runs`);
  const folder = resolve(mergeFrom);
  const shards = existsSync(folder) ? readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(folder, entry.name)).sort() : [];
  if (shards.length === 0) throw new InputError(`merge-from: no shard report folder in ${folder}`);
  return ['merge', ...options([...given, 'report-dir']), ...shards];
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

/**
 * A cancelled job's runner signals the step's own process (SIGINT, then SIGTERM), not the run it
 * started: each signal is passed on, so that the run stops as an interrupted one does, killing
 * what it holds and writing the report of what it judged, marked incomplete, which is then
 * uploaded. The run has a process group of its own (detached), so that a Ctrl-C sent to a
 * terminal's group reaches it once, through here, and not twice (a second signal ends a run at
 * once, without its report).
 */
async function exitCodeForwardingSignals(subprocess: ResultPromise): Promise<number | undefined> {
  const forward = (signal: NodeJS.Signals) => subprocess.kill(signal);
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.on(signal, forward);
  try {
    return (await subprocess).exitCode;
  } finally {
    for (const signal of signals) process.off(signal, forward);
  }
}

/** Step outputs in the runner's `name=value` format; every value here is one line. */
function writeOutputs(outputs: Record<string, string | number>): void {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) throw new Error('GITHUB_OUTPUT is not set: this step runs inside a GitHub Actions job');
  const broken = Object.entries(outputs).find(([, value]) => String(value).includes('\n'));
  if (broken !== undefined) throw new Error(`the ${broken[0]} output would span lines, which the runner would misread: ${JSON.stringify(broken[1])}`);
  appendFileSync(file, Object.entries(outputs).map(([name, value]) => `${name}=${value}\n`).join(''));
}

/** `run`: the run (or the merge) itself, in the step's working directory, so that brokers, adapters and reports resolve from the user's project. */
export async function runStep(): Promise<void> {
  const reportDir = resolve(inputOf(process.env, 'report-dir') ?? 'gauntlet-report');
  const since = Date.now();
  let exitCode: number;
  try {
    // Bounded by the run's own budgets (--run-budget), and by the job's timeout above them.
    const subprocess = execa(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), ...gauntletArguments(process.env, reportDir)], { stdio: 'inherit', reject: false, detached: true });
    exitCode = (await exitCodeForwardingSignals(subprocess)) ?? NOT_JUDGED;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    process.stderr.write(`mcp-gauntlet action: ${error.message}\n`);
    exitCode = NOT_JUDGED;
  }
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
