// The composite GitHub Action (action.yml): its inputs all used and passed as options `gauntlet run`
// accepts, and its steps run as the runner runs them (bash, with the runner's variables and files),
// on one attack and its control: the exit code, the outputs and the job summary each as expected.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gauntletArguments, InputError, inputVariable, RUN_OPTION_INPUTS } from '../../harness/ci/github-action.js';
import { packageRoot } from '../../harness/paths.js';
import { headlineOf } from '../../harness/report/headline.js';
import { summarise, type Report } from '../../harness/report/summary.js';
import { scratchFolders } from './scratch.js';

interface ActionStep {
  id?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  'working-directory'?: string;
  env?: Record<string, string>;
}

interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const action = parse(readFileSync(join(packageRoot, 'action.yml'), 'utf8')) as Action;
const steps = action.runs.steps;
const runStep = steps.find((step) => step.id === 'run') as ActionStep;
const scratch = scratchFolders('gauntlet-action');

/** One attack and its control: a run of a few seconds. */
const ATTACK = 'pin.description-reworded';

interface Context {
  inputs: Record<string, string>;
  outputs: Record<string, Record<string, string>>;
  workspace: string;
}

/**
 * The expressions action.yml uses, as the runner evaluates them. Anything else fails the test, so
 * that a step never depends on an expression this local run does not understand.
 */
function evaluate(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return context.inputs[input[1] as string] ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return context.outputs[output[1] as string]?.[output[2] as string] ?? '';
    if (expression === 'github.action_path') return packageRoot;
    if (expression === 'github.workspace') return context.workspace;
    throw new Error(`an expression this test does not evaluate: ${expression}`);
  });
}

/** A step's outputs, from the file the runner gives it as GITHUB_OUTPUT (`name=value` lines). */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`an output line the runner would not read as name=value: ${line}`);
    outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}

/** A job cancelled during the run step: the runner's signal sent to the step's process once its output shows `after`. */
interface CancelAt {
  after: RegExp;
  signal: NodeJS.Signals;
}

interface ActionRun {
  exitCode: number;
  outputs: Record<string, string>;
  summary: string;
  log: string;
}

/**
 * The action's steps run as the runner runs them: `uses:` steps (setup-node, upload-artifact) and
 * the install (dist/ is built by the tests' own build) skipped; a step without `if` only after
 * every step before it succeeded, one with `if: always()` regardless; each with its own
 * GITHUB_OUTPUT file, all with one GITHUB_STEP_SUMMARY. The action ends with its last step's code.
 */
async function runAction(given: Record<string, string>, workspace: string, cancel?: CancelAt): Promise<ActionRun> {
  const defaults = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']));
  const context: Context = { inputs: { ...defaults, ...given }, outputs: {}, workspace };
  const runnerTemp = mkdtempSync(join(workspace, '.runner-temp-'));
  const summaryFile = join(runnerTemp, 'summary.md');
  writeFileSync(summaryFile, '');
  let failed = false;
  let exitCode = 0;
  let log = '';
  for (const [index, step] of steps.entries()) {
    if (step.uses !== undefined || step.id === 'install') continue;
    if (step.if !== undefined && step.if !== 'always()') throw new Error(`a condition this test does not evaluate: ${step.if}`);
    if (failed && step.if === undefined) continue;
    const outputFile = join(runnerTemp, `output-${index}`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(value, context)]));
    const cwd = resolve(workspace, evaluate(step['working-directory'] ?? '.', context));
    // As the runner runs a step: its script written to a file, given to bash (so that bash does
    // not exec the last command in its place, as it does with -c).
    const script = join(runnerTemp, `step-${index}.sh`);
    writeFileSync(script, step.run as string);
    const subprocess = execa('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env: { ...env, GITHUB_ACTION_PATH: packageRoot, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile },
      all: true,
      reject: false,
      // A bound for a step that never ends; a loaded machine takes a few seconds for one.
      timeout: 100_000,
    });
    if (cancel !== undefined && step.id === 'run') {
      let seen = '';
      let sent = false;
      subprocess.all?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (sent || !cancel.after.test(seen)) return;
        sent = subprocess.kill(cancel.signal);
      });
    }
    const result = await subprocess;
    log += result.all ?? '';
    exitCode = result.exitCode ?? -1;
    failed ||= exitCode !== 0;
    if (step.id !== undefined) context.outputs[step.id] = readOutputs(outputFile);
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, evaluate(output.value, context)]));
  return { exitCode, outputs, summary: readFileSync(summaryFile, 'utf8'), log };
}

/** The outputs of a run with a report, as the report's own headline gives them. */
function headlineOutputs(report: Report): Record<string, string> {
  return Object.fromEntries(Object.entries(headlineOf(report)).map(([name, value]) => [name.replace(/_/g, '-'), String(value)]));
}

const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

describe('the GitHub Action', () => {
  it('is a composite action whose shell steps run bash and take every value through env, never spliced into the script', () => {
    expect(action.runs.using).toBe('composite');
    const shellSteps = steps.filter((step) => step.run !== undefined);
    expect(shellSteps.length).toBeGreaterThan(0);
    for (const step of shellSteps) {
      expect(step.shell, step.id).toBe('bash');
      expect(step.run, step.id).not.toContain('${{');
    }
    expect(steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))?.uses).toMatch(/@v\d+$/);
  });

  it('uses every input, and hands each run option to the run step under its own name', () => {
    const text = JSON.stringify(steps);
    for (const name of Object.keys(action.inputs)) expect(text, `input ${name}`).toMatch(new RegExp(`inputs\\.${name}(?![\\w-])`));
    const expected = Object.fromEntries([...RUN_OPTION_INPUTS, 'merge-from'].map((name) => [inputVariable(name), `\${{ inputs.${name} }}`]));
    expect(runStep.env).toEqual(expected);
  });

  it('declares as outputs the exit code, the report folder and every number of the headline', () => {
    const headline = Object.keys(headlineOf({ summary: summarise([]), cases: [] } as unknown as Report)).map((name) => name.replace(/_/g, '-'));
    expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'report-dir', ...headline].sort());
  });

  it('passes only options that gauntlet run accepts', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'baseline.yaml'), 'format: mcp-gauntlet-baseline/1\ncandidate: reference\nentries: []\n');
    const everyInput = { candidate: 'reference', baseline: 'baseline.yaml', profile: 'core', filter: ATTACK, shard: '1/1', 'step-timeout': '5000', 'scenario-budget': '60000', 'run-budget': '600000', jobs: '1' };
    const env = Object.fromEntries(Object.entries(everyInput).map(([name, value]) => [inputVariable(name), value]));
    const args = gauntletArguments(env, join(dir, 'report'));
    expect(args.filter((arg) => arg.startsWith('--')).sort()).toEqual(RUN_OPTION_INPUTS.map((name) => `--${name}`).sort());
    // Every option is parsed and checked before the selection, which refuses --filter with --profile:
    // reaching that refusal shows the command line took every option and every value.
    const result = await execa(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), ...args], { cwd: dir, reject: false, timeout: 30_000 });
    expect(result.stderr).toContain('--filter and --profile each select the scenarios; give one');
    expect(result.exitCode).toBe(2);
  });

  it('holds the attack against the reference broker: exit 0, the numbers as outputs, the headline in the summary', async () => {
    const workspace = scratch();
    mkdirSync(join(workspace, 'broker', 'gauntlet'), { recursive: true });
    writeFileSync(join(workspace, 'broker', 'gauntlet', 'baseline.yaml'), 'format: mcp-gauntlet-baseline/1\ncandidate: reference\nentries: []\n');
    const run = await runAction({ candidate: 'reference', filter: ATTACK, baseline: 'gauntlet/baseline.yaml', 'working-directory': 'broker', jobs: '1' }, workspace);
    expect(run.exitCode, run.log).toBe(0);
    const reportDir = join(workspace, 'broker', 'gauntlet-report');
    const report = readReport(reportDir);
    expect(report.cases.map((c) => [c.id, c.outcome])).toEqual([
      [ATTACK, 'pass'],
      ['pin.description-unchanged', 'pass'],
    ]);
    expect(run.outputs).toEqual({ 'exit-code': '0', 'report-dir': reportDir, ...headlineOutputs(report) });
    expect(run.outputs).toMatchObject({ 'attacks-held': '1', 'attacks-run': '1', 'controls-passed': '1', 'controls-run': '1', exposed: '0' });
    expect(run.summary).toContain('### mcp-gauntlet: reference');
    expect(run.summary).toContain('exit 0');
    expect(run.summary).toContain('**Attacks held: 1 of 1**');
    expect(run.summary).toContain('controls passed: 1 of 1');
    expect(run.summary).toContain('0 expected failure(s), 0 unexpected, 0 stale entries');
    expect(run.summary).toContain('artifact `gauntlet-report`');
    for (const file of ['report.html', 'report.md', 'junit.xml']) expect(readFileSync(join(reportDir, file), 'utf8').length, file).toBeGreaterThan(0);
  });

  it('shows the attack getting through passthrough: exit 1, exposed 1, and says so in the summary', async () => {
    const workspace = scratch();
    const run = await runAction({ candidate: 'passthrough', filter: ATTACK, 'report-dir': 'out/gauntlet', 'upload-report': 'false', jobs: '1' }, workspace);
    expect(run.exitCode, run.log).toBe(1);
    const reportDir = join(workspace, 'out', 'gauntlet');
    const report = readReport(reportDir);
    expect(run.outputs).toEqual({ 'exit-code': '1', 'report-dir': reportDir, ...headlineOutputs(report) });
    expect(run.outputs).toMatchObject({ 'attacks-held': '0', 'attacks-run': '1', 'controls-passed': '1', exposed: '1', 'over-blocked': '0' });
    expect(run.summary).toContain('exit 1');
    expect(run.summary).toContain('**failed: a failure or error the baseline does not list');
    expect(run.summary).toContain('**Attacks held: 0 of 1**');
    expect(run.summary).toMatch(/\| 1 \(0 \/ 1\) \| 0 \| 0 \| 0 \| 0 \| 2 \|/);
    // Not uploaded: the summary names no artifact.
    expect(run.summary).not.toContain('artifact');
  });

  it('ends with exit 2 and says there is no report when the run cannot start, never reading an earlier run\'s report as its own', async () => {
    const workspace = scratch();
    writeFileSync(join(workspace, 'baseline.yaml'), 'format: mcp-gauntlet-baseline/1\nentries: [{ scenario: x }]\n');
    const reportDir = join(workspace, 'gauntlet-report');
    mkdirSync(reportDir);
    // An earlier run's report, left in the folder: the run refused now does not replace it.
    writeFileSync(join(reportDir, 'report.json'), '{"format": "mcp-gauntlet-report/3", "summary": {}}');
    utimesSync(join(reportDir, 'report.json'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    // fail-on-findings: false lets a finding (exit 1) pass the step, never a run that judged nothing.
    const run = await runAction({ candidate: 'reference', filter: ATTACK, baseline: 'baseline.yaml', 'fail-on-findings': 'false' }, workspace);
    expect(run.exitCode, run.log).toBe(2);
    expect(run.outputs).toMatchObject({ 'exit-code': '2', 'report-dir': reportDir, 'attacks-held': '', exposed: '' });
    expect(run.summary).toContain('### mcp-gauntlet: no report, exit 2');
    expect(run.summary).toContain('nothing could be judged');
  });

  it('merges the shards\' reports it finds in merge-from, one folder each as download-artifact lays them out, and gates on the merge', async () => {
    const workspace = scratch();
    const shardCodes: Array<[string | undefined, number]> = [];
    for (const shard of ['1/2', '2/2']) {
      const run = await runAction({ candidate: 'passthrough', filter: ATTACK, shard, 'report-dir': `shards/gauntlet-shard-${shard[0]}`, 'upload-report': 'false', 'fail-on-findings': 'false', jobs: '1' }, workspace);
      shardCodes.push([run.outputs['exit-code'], run.exitCode]);
    }
    // The whole family in the first shard (exposed, exit 1, which does not fail its step); nothing in the second (exit 0).
    expect(shardCodes).toEqual([['1', 0], ['0', 0]]);
    const merge = await runAction({ 'merge-from': 'shards', 'report-dir': 'merged' }, workspace);
    expect(merge.exitCode, merge.log).toBe(1);
    const merged = readReport(join(workspace, 'merged'));
    expect(merged.cases.map((c) => c.id)).toEqual([ATTACK, 'pin.description-unchanged']);
    expect(merge.outputs).toEqual({ 'exit-code': '1', 'report-dir': join(workspace, 'merged'), ...headlineOutputs(merged) });
    expect(merge.outputs).toMatchObject({ 'attacks-held': '0', 'attacks-run': '1', exposed: '1' });
    expect(merge.summary).toContain('**Attacks held: 0 of 1**');
    // Three runs of the action: more than the one a test's default bound is sized for, on a loaded machine.
  }, 180_000);

  it('refuses a run without a candidate, an input of the run beside merge-from, and a merge-from with no shard in it', () => {
    const workspace = scratch();
    const env = (inputs: Record<string, string>) => Object.fromEntries(Object.entries(inputs).map(([name, value]) => [inputVariable(name), value]));
    expect(() => gauntletArguments(env({ filter: ATTACK }), workspace)).toThrow(new InputError("the candidate input is required to run: a built-in candidate's name or your adapter's path"));
    mkdirSync(join(workspace, 'shards', 'gauntlet-shard-1'), { recursive: true });
    expect(() => gauntletArguments(env({ 'merge-from': join(workspace, 'shards'), candidate: 'reference', shard: '1/2' }), workspace)).toThrow('candidate, shard belong to the shards\' runs');
    expect(() => gauntletArguments(env({ 'merge-from': join(workspace, 'none') }), workspace)).toThrow(`merge-from: no shard report folder in ${join(workspace, 'none')}`);
    expect(gauntletArguments(env({ 'merge-from': join(workspace, 'shards'), baseline: 'b.yaml' }), join(workspace, 'out'))).toEqual(['merge', '--baseline', 'b.yaml', '--report-dir', join(workspace, 'out'), join(workspace, 'shards', 'gauntlet-shard-1')]);
  });

  it('is used in the example workflows with inputs it declares: a candidate to run, or shards to merge', () => {
    const dir = join(packageRoot, 'examples', 'github-actions');
    const uses = readdirSync(dir)
      .filter((file) => file.endsWith('.yml'))
      .flatMap((file) => {
        const workflow = parse(readFileSync(join(dir, file), 'utf8')) as { jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }> };
        return Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.uses?.includes('/mcp-gauntlet@')).map((step) => ({ file, with: step.with ?? {} })));
      });
    expect(new Set(uses.map((use) => use.file))).toEqual(new Set(['gauntlet.yml', 'gauntlet-without-baseline.yml', 'gauntlet-sharded.yml']));
    for (const use of uses) {
      for (const input of Object.keys(use.with)) expect(Object.keys(action.inputs), `${use.file}: ${input}`).toContain(input);
      expect(('candidate' in use.with) !== ('merge-from' in use.with), `${use.file}: a candidate or merge-from, not both`).toBe(true);
    }
    expect(uses.some((use) => 'baseline' in use.with)).toBe(true);
    expect(uses.some((use) => 'candidate' in use.with && !('baseline' in use.with))).toBe(true);
  });

  it('passes a cancelled job\'s signal on to the run, which stops and writes its report marked incomplete, summarised and ending in exit 2', async () => {
    const workspace = scratch();
    // The runner signals the step's own process; the step execs the program that passes it on.
    const run = await runAction({ candidate: 'reference', filter: 'pin.*', jobs: '1' }, workspace, { after: /^\[\d+\/\d+\] /m, signal: 'SIGTERM' });
    expect(run.exitCode, run.log).toBe(2);
    const report = readReport(join(workspace, 'gauntlet-report'));
    expect(report.incomplete?.reason).toBe('SIGTERM');
    expect(report.incomplete?.not_run.length).toBeGreaterThan(0);
    expect(run.outputs).toMatchObject({ 'exit-code': '2', ...headlineOutputs(report) });
    expect(run.summary).toContain('**INCOMPLETE**: the run was interrupted (SIGTERM)');
  });
});
