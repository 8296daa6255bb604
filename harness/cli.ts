import { resolve } from 'node:path';
import { builtInCandidates, loadCandidate } from './candidates/registry.js';
import { loadCatalogue } from './catalogue.js';
import { mergeCommand } from './commands/merge.js';
import { reportDirFor } from './paths.js';
import { loadRequirements } from './requirements.js';
import { casesOf, loadTaxonomies } from './taxonomies.js';
import { plannedChecks, requiredHooks } from './expect/plan.js';
import { readBaseline } from './run/baseline.js';
import { finishReport } from './run/finish.js';
import { MAX_TIMER_MS, parseOptions, parseStepTimeout, parseWhole, refuseEmpty, UsageError } from './run/options.js';
import { claimReportDir } from './run/report-dir.js';
import { onInterrupt } from './observe/containment.js';
import { CaseLines, ProgressLine } from './run/progress.js';
import { selectScenarios } from './run/select.js';
import { dropMachineVariables } from './run/environment.js';
import { parseShard } from './run/shard.js';
import { runSuite } from './run/suite.js';
import { DEFAULT_RUN_BUDGET_MS, DEFAULT_SCENARIO_BUDGET_MS } from './run/budget.js';
import { defaultJobs, MAX_JOBS } from './run/pool.js';
import { smokeCommand } from './commands/smoke.js';
import { catalogue } from '../servers/catalogue.js';
import { indexCommand } from './commands/index.js';
import { reproCommand } from './commands/repro.js';
import { serveCommand } from './commands/serve.js';
import { BASE_REVISION, isRevision, REVISIONS } from './agent/revisions.js';
import { transparencyCommand } from './commands/transparency.js';
import { runTransparency } from './transparency/registry.js';
import { didYouMean } from './nearest.js';

const USAGE = `usage:
  gauntlet run [--candidate NAME_OR_MODULE] [--filter GLOB | --profile NAME] [--revision ${REVISIONS.join(' | ')}] [--shard I/N]
               [--baseline FILE] [--write-baseline FILE]
               [--report-dir DIR] [--step-timeout MS (1 to 3600000)] [--keep-workdir DIR]
               [--jobs N] [--scenario-budget MS] [--run-budget MS] [--transparency | --no-transparency]
  gauntlet transparency [--candidate NAME_OR_MODULE] [--suite NAME ...] [--out FILE] [--step-timeout MS]
  gauntlet merge --report-dir OUT [--baseline FILE] [--write-baseline FILE] SHARD_DIR...
  gauntlet list [--requirements | --servers | --taxonomies] [--json]
  gauntlet index [--reports DIR] [--out FILE]
  gauntlet repro <scenario-id> [--out DIR]
  gauntlet smoke --candidate NAME_OR_ADAPTER [--step-timeout MS]
  gauntlet serve <server-id> [--ledger FILE] [--control FILE] [--canary FILE] [--http [--listen ADDRESS]] [knob=value ...]

candidates: ${builtInCandidates.join(', ')}, the path of an adapter module (.js, .mjs), or of an
executable adapter speaking gauntlet-candidate/2 (a .py runs with python3; docs/adapter-protocol.md)
exit codes (run, merge): 0 all selected scenarios pass (unsupported does not fail) or only failures
the baseline lists, 1 a scenario failed or errored unexpectedly or a baseline entry is stale, 2 nothing
could run (docs/ci.md)`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions({
    args: argv,
    options: {
      candidate: { type: 'string', default: 'reference' },
      filter: { type: 'string' },
      profile: { type: 'string' },
      revision: { type: 'string' },
      shard: { type: 'string' },
      baseline: { type: 'string' },
      'write-baseline': { type: 'string' },
      'report-dir': { type: 'string' },
      'step-timeout': { type: 'string' },
      'keep-workdir': { type: 'string' },
      jobs: { type: 'string' },
      'scenario-budget': { type: 'string' },
      'run-budget': { type: 'string' },
      transparency: { type: 'boolean' },
      'no-transparency': { type: 'boolean' },
    },
  });
  // Every option is checked before anything runs (exit 2): none of them is found wanting after the run.
  refuseEmpty(values);
  const jobs = parseWhole('jobs', values.jobs, defaultJobs(), [1, MAX_JOBS]);
  const budget = (option: 'scenario-budget' | 'run-budget', fallback: number): number =>
    parseWhole(option, values[option], fallback, [1, MAX_TIMER_MS], 'a positive whole number of milliseconds');
  const scenarioBudgetMs = budget('scenario-budget', DEFAULT_SCENARIO_BUDGET_MS);
  const runBudgetMs = budget('run-budget', DEFAULT_RUN_BUDGET_MS);
  const stepTimeoutMs = parseStepTimeout(values['step-timeout']);
  if (values.transparency === true && values['no-transparency'] === true) throw new UsageError('--transparency and --no-transparency contradict each other');
  const givenReportDir = values['report-dir'] === undefined ? undefined : resolve(values['report-dir']);
  if (givenReportDir !== undefined) claimReportDir(givenReportDir);
  // Interrupted (SIGINT, SIGTERM), every process the run holds is killed at once, the scenario in
  // progress ends and is left out, and the report of those judged is written, marked incomplete.
  const interrupt = new AbortController();
  onInterrupt((signal) => {
    process.stderr.write(`\nmcp-gauntlet: ${signal}: stopping; the report will be marked incomplete\n`);
    interrupt.abort(signal);
  });
  // A baseline that cannot be used stops the run before anything runs (exit 2).
  const baseline = values.baseline === undefined ? undefined : readBaseline(resolve(values.baseline));
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (values.revision !== undefined && !isRevision(values.revision)) throw new UsageError(`--revision takes ${REVISIONS.join(' or ')}, not ${values.revision}`);
  const revision = values.revision;
  const scenarios = selectScenarios({
    ...(values.filter ? { filter: values.filter } : {}),
    ...(values.profile ? { profile: values.profile } : {}),
    ...(shard ? { shard } : {}),
    ...(revision === undefined ? {} : { revision }),
  });
  if (scenarios.length === 0 && shard === undefined) {
    const near = values.filter === undefined ? '' : didYouMean(values.filter, loadCatalogue().map((s) => s.id));
    throw new UsageError(`no scenario matches ${values.filter ?? '(all)'}${revision === undefined ? '' : ` in ${revision}`}${near}`);
  }
  // Loaded last: a protocol adapter is a process, ended once the suite has run.
  const candidate = await loadCandidate(values.candidate);
  const reportDir = givenReportDir ?? reportDirFor(candidate.info.name);
  if (givenReportDir === undefined) {
    try {
      claimReportDir(reportDir);
    } catch (error) {
      await candidate.dispose?.();
      throw error;
    }
  }
  const progress = process.stderr.isTTY ? new ProgressLine({ write: (text) => process.stderr.write(text), columns: () => process.stderr.columns }) : undefined;
  const log = (line: string) => (progress ? progress.log(line) : process.stderr.write(`${line}\n`));
  const caseLines = new CaseLines();
  log(`mcp-gauntlet: ${scenarios.length} scenario(s) against ${candidate.info.name}${shard ? ` (shard ${shard.index}/${shard.count})` : ''}, ${jobs} at a time`);
  const keepWorkdir = values['keep-workdir'] === undefined ? undefined : resolve(values['keep-workdir']);
  const report = await runSuite(candidate, scenarios, {
    stepTimeoutMs,
    jobs,
    scenarioBudgetMs,
    runBudgetMs,
    ...(keepWorkdir === undefined ? {} : { keepWorkdir }),
    ...(values.filter ? { filter: values.filter } : {}),
    onStart: (scenario, _index, total) => progress?.start(scenario.id, total),
    onCase(result, _index, total) {
      progress?.finish(result);
      const line = caseLines.next(result, total);
      // On a terminal the progress line counts the passes; only what needs a look scrolls by.
      if (progress === undefined || result.outcome !== 'pass') log(line);
    },
    interrupt: interrupt.signal,
  })
    .then(async (report) => {
      // The second score, on the same candidate before it is disposed of. By default for a whole
      // run only, in its first shard when it is split (the merge carries that shard's): a filtered
      // or profiled run is a quick look (a minute more would double many); --transparency runs it
      // anyway.
      const whole = values.filter === undefined && values.profile === undefined && revision === undefined && (shard === undefined || shard.index === 1);
      const wanted = values.transparency === true || (whole && values['no-transparency'] !== true);
      if (!wanted || interrupt.signal.aborted) return report;
      log('mcp-gauntlet: transparency: the official servers direct and through the candidate (--no-transparency skips it)');
      report.transparency = await runTransparency(candidate, { stepTimeoutMs, signal: interrupt.signal });
      return report;
    })
    .finally(() => candidate.dispose?.().catch((error: unknown) => log(`mcp-gauntlet: the candidate's adapter did not close cleanly: ${(error as Error).message}`)));
  progress?.stop();
  if (shard !== undefined) report.shard = shard;
  if (values.profile !== undefined) report.profile = values.profile;
  return finishReport(report, {
    reportDir,
    ...(baseline === undefined ? {} : { baseline }),
    ...(values['write-baseline'] === undefined ? {} : { writeBaselineTo: resolve(values['write-baseline']) }),
    log,
  });
}

function list(argv: string[]): number {
  const { values } = parseOptions({
    args: argv,
    options: { requirements: { type: 'boolean' }, servers: { type: 'boolean' }, taxonomies: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  if (values.servers) {
    const rows = catalogue.map((entry) => ({ id: entry.id, attack: entry.attack, description: entry.description }));
    process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : rows.map((r) => `${r.id.padEnd(24)} ${r.attack.padEnd(22)} ${r.description}\n`).join(''));
    return 0;
  }
  const scenarios = loadCatalogue();
  if (values.taxonomies) {
    // Each class of each public taxonomy with the scenarios its ids and globs name, or why none (docs/taxonomies.md).
    const rows = loadTaxonomies().map((taxonomy) => ({
      id: taxonomy.id,
      name: taxonomy.name,
      publication: taxonomy.publication,
      classes: taxonomy.classes.map((entry) => ({ ...entry, cases: casesOf(entry, scenarios).map((s) => s.id) })),
    }));
    if (values.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    for (const row of rows) {
      process.stdout.write(`${row.name} (${row.publication.url})\n`);
      for (const entry of row.classes) {
        const judged = entry.scenarios === undefined ? `${entry.missing === true ? 'MISSING' : 'NOT JUDGEABLE'}: ${entry.reason}` : entry.cases.join(', ');
        process.stdout.write(`  ${entry.id.padEnd(30)} ${entry.title}\n    ${judged}\n`);
      }
    }
    return 0;
  }
  if (!values.requirements) {
    // With --json, what an adapter author needs to know of each: the hooks it cannot run without,
    // the protections it tests, its control, the variant it is of its file, the MCP revision it
    // speaks (and whether it is of a feature that revision deprecates), and the checks it can
    // report with their classes.
    const rows = scenarios.map((s) => ({
      id: s.id,
      kind: s.kind,
      level: s.level,
      requirements: s.requirements,
      title: s.title,
      file: s.file,
      claims: s.claims,
      ...(s.control === undefined ? {} : { control: s.control }),
      ...(s.variant === undefined ? {} : { variant: s.variant }),
      revision: s.revision ?? BASE_REVISION,
      ...(s.legacy === true ? { legacy: true } : {}),
      hooks: requiredHooks(s),
      checks: [...new Map(plannedChecks(s).map((planned) => [planned.check, planned])).values()],
    }));
    process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : rows.map((r) => `${r.id.padEnd(44)} ${r.kind.padEnd(8)} ${r.requirements.join(',').padEnd(12)} ${r.title}\n`).join(''));
    return 0;
  }
  const rows = loadRequirements().map((requirement) => ({
    ...requirement,
    scenarios: scenarios.filter((s) => s.requirements.includes(requirement.id)).map((s) => s.id),
  }));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const row of rows) {
      const covered = row.scenarios.length > 0 ? row.scenarios.join(', ') : 'UNCOVERED';
      process.stdout.write(`${row.id.padEnd(8)} ${row.level.padEnd(6)} ${covered}\n         ${row.text}\n`);
    }
    const uncovered = rows.filter((row) => row.scenarios.length === 0).length;
    process.stdout.write(`${rows.length} requirements, ${rows.length - uncovered} covered, ${uncovered} uncovered\n`);
  }
  return 0;
}

const COMMANDS: Record<string, (argv: string[]) => number | Promise<number>> = {
  run,
  list,
  repro: reproCommand,
  serve: serveCommand,
  merge: mergeCommand,
  index: indexCommand,
  smoke: smokeCommand,
  transparency: transparencyCommand,
};

async function main(argv: string[]): Promise<number> {
  // Before anything is started, so that nothing inherits them (harness/run/environment.ts).
  dropMachineVariables();
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) return COMMANDS[command]!(rest);
  if (command === undefined || command === '--help') {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  process.stderr.write(`mcp-gauntlet: unknown command ${JSON.stringify(command)}${didYouMean(command, Object.keys(COMMANDS))}\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-gauntlet: ${(error as Error).message}\n`);
    process.exitCode = 2;
  },
);
