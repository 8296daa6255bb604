#!/usr/bin/env node
// Writes reports/mutation.md from one or more Stryker JSON reports (mutation-testing-report-schema).
// Each run of `npm run mutation` (or of a part: `--mutate 'src/guards/**/*.ts'`) writes one; a
// later report's result for a mutant replaces an earlier one's, so parts run at different times
// (and re-runs of a few lines) add up.
// Surviving mutants in src/guards/ are matched against test/mutation/equivalent.json, the
// written reason why each one cannot change what the broker does; a survivor with no reason is
// listed as work left, and a reason that matches no survivor is listed as stale.
//
// With --baseline REV, the report committed at REV (its per-file counts and its survivor lists)
// stands for every file the given runs did not mutate, provided that file's source is what it was
// at REV; a file changed since then must be run again. Stryker's own incremental mode does the
// same per mutant, but needs the run's incremental file, which a fresh checkout does not have.
//
//   node test/mutation/write-report.mjs [--baseline REV] [--command TEXT [--minutes N]]... [--note TEXT]... report.json|progress.jsonl...

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    out: { type: 'string', default: 'reports/mutation.md' },
    equivalent: { type: 'string', default: 'test/mutation/equivalent.json' },
    minutes: { type: 'string', multiple: true, default: [] },
    command: { type: 'string', multiple: true, default: [] },
    note: { type: 'string', multiple: true, default: [] },
    baseline: { type: 'string' },
  },
  allowPositionals: true,
});
if (positionals.length === 0) throw new Error('name at least one Stryker JSON report');

const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const GUARDS = 'src/guards/';

/** path -> { source, mutants }, a later report's file replacing an earlier one's. */
const files = new Map();
/** Runs stopped before their end (progress files): how many mutants each planned and tested. */
const partial = [];
for (const report of positionals) {
  if (report.endsWith('.jsonl')) readProgress(report);
  else for (const [path, file] of Object.entries(JSON.parse(readFileSync(report, 'utf8')).files)) add(path.replace(/^.*?(?=src\/)/, ''), file);
}

/** A mutant is the same mutant in two runs of the same source when it changes the same text the same way. */
function mutantKey({ location: { start, end }, mutatorName, replacement }) {
  return `${start.line}:${start.column}:${end.line}:${end.column}:${mutatorName}:${replacement}`;
}

/**
 * A later run's result for a mutant replaces an earlier one's; mutants only one run tested are
 * kept while the source is the same. A later run of changed source replaces the file whole: the
 * earlier mutants are of code that is no longer there.
 */
function add(path, file) {
  const earlier = files.get(path);
  const kept = earlier !== undefined && earlier.source === file.source ? earlier.mutants : [];
  const mutants = new Map(kept.map((m) => [mutantKey(m), m]));
  for (const m of file.mutants) mutants.set(mutantKey(m), m);
  files.set(path, { source: file.source, mutants: [...mutants.values()] });
}

/** A progress-reporter.mjs file: one line per tested mutant, after one with the plan's size. */
function readProgress(report) {
  const parsed = readFileSync(report, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const head = parsed.find((line) => 'planned' in line) ?? { planned: NaN };
  const results = parsed.filter((line) => !('planned' in line));
  const byFile = new Map();
  for (const mutant of results) byFile.set(mutant.fileName, [...(byFile.get(mutant.fileName) ?? []), mutant]);
  for (const [path, mutants] of byFile) add(path, { source: readFileSync(path, 'utf8'), mutants });
  if (!(results.length >= head.planned)) partial.push({ report, planned: head.planned, tested: results.length, files: [...byFile.keys()] });
}

/** The mutated text: the source between the mutant's start and end (1-based lines and columns). */
function original(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}
const oneLine = (text, max = 90) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const code = (text) => `\`${oneLine(text).replaceAll('`', "'")}\``;

/** What a file's (or a folder's) mutants came to: counted from a run's mutants, or read from the baseline. */
function countsOf(mutants) {
  const count = (statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
  return { total: mutants.length, detected: count(['Killed', 'Timeout']), survived: count(['Survived']), noCoverage: count(['NoCoverage']), ignored: count(['Ignored']), errors: count(['CompileError', 'RuntimeError']) };
}
const sum = (list) => list.reduce((a, b) => Object.fromEntries(Object.keys(a).map((key) => [key, a[key] + b[key]])), countsOf([]));

function tally(counts) {
  const valid = counts.detected + counts.survived + counts.noCoverage;
  return {
    ...counts,
    score: valid === 0 ? NaN : (100 * counts.detected) / valid,
    covered: valid - counts.noCoverage === 0 ? NaN : (100 * counts.detected) / (valid - counts.noCoverage),
  };
}
const percent = (value) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)}%`);
const row = (name, t) =>
  `| ${name} | ${t.total} | ${t.detected} | ${t.survived} | ${t.noCoverage} | ${t.ignored} | ${t.errors} | **${percent(t.score)}** | ${percent(t.covered)} |`;
const HEADER = [
  '| | mutants | killed | survived | no coverage | static (not run) | errors | score | score of covered |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];

/**
 * The files the report at `rev` holds that no run here mutated: their counts, and the lines it
 * wrote of their survivors, kept only while the file is what it was at `rev`.
 */
function baselineFiles(rev) {
  const text = execFileSync('git', ['show', `${rev}:reports/mutation.md`], { encoding: 'utf8' });
  const table = text.slice(text.indexOf('## Score per file'), text.indexOf('## Surviving mutants in guards'));
  const kept = new Map();
  // A file the report at `rev` had itself kept from its own baseline is marked † there: it is
  // kept again, still only while its source is unchanged, so baselines chain.
  for (const match of table.matchAll(/^\| (src\/\S+)(?: †)? \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|/gm)) {
    const [, path, total, detected, survived, noCoverage, ignored, errors] = match;
    if (files.has(path) || !existsSync(path)) continue;
    try {
      execFileSync('git', ['diff', '--quiet', rev, '--', path]);
    } catch {
      throw new Error(`${path} has changed since ${rev}: mutate it again rather than keep its old counts`);
    }
    // The survivor lists as the baseline wrote them: a guard's section, or a <details> block.
    const guardSection = new RegExp(`^### ${path}(?: †)?\\n\\n((?:- .*\\n)+)`, 'm').exec(text)?.[1] ?? '';
    const details = new RegExp(`^<details><summary>${path}(?: †)?: \\d+</summary>\\n\\n((?:- .*\\n)+)`, 'm').exec(text)?.[1] ?? '';
    const counts = { total: +total, detected: +detected, survived: +survived, noCoverage: +noCoverage, ignored: +ignored, errors: +errors };
    kept.set(path, { counts, survivorLines: (guardSection || details).trimEnd().split('\n').filter((line) => line !== '') });
  }
  return kept;
}
const baseline = values.baseline === undefined ? new Map() : baselineFiles(values.baseline);

/** Every file in the report, run here or kept from the baseline, with its counts. */
const entries = [
  ...[...files.entries()].map(([path, file]) => [path, { ...file, counts: countsOf(file.mutants) }]),
  ...[...baseline.entries()],
].sort(([a], [b]) => a.localeCompare(b));
const all = sum(entries.map(([, file]) => file.counts));
const byFolder = new Map();
for (const [path, file] of entries) {
  const folder = path.split('/').slice(0, 2).join('/');
  byFolder.set(folder, [...(byFolder.get(folder) ?? []), file.counts]);
}

const equivalent = JSON.parse(readFileSync(values.equivalent, 'utf8'));
const keyOf = (path, m, source) => `${path}:${m.location.start.line}:${m.mutatorName}:${oneLine(original(source, m.location))}`;
const reasons = new Map(equivalent.map((e) => [`${e.file}:${e.line}:${e.mutator}:${e.original}`, e.reason]));
const used = new Set();

const lines = [
  '# Mutation testing of the reference broker',
  '',
  'Generated by `test/mutation/write-report.mjs` from the Stryker JSON report(s) of a real run;',
  'how the run is set up, and what it does and does not reach, is in docs/mutation.md.',
  '',
];
for (const [index, command] of values.command.entries()) {
  const minutes = values.minutes[index];
  lines.push(`- \`${command}\`${minutes === undefined ? '' : `: ${minutes} min`}`);
}
if (values.command.length > 0) lines.push('');
for (const note of values.note) lines.push(note, '');
for (const run of partial) {
  lines.push(
    `**Stopped before its end:** ${run.report} holds ${run.tested} of the ${Number.isNaN(run.planned) ? 'unknown number of' : run.planned} mutants its run planned; the scores of`,
    `${run.files.map((path) => `\`${path}\``).join(', ')} are over the mutants tested, and a file's untested mutants are in no count.`,
    '',
  );
}
if (baseline.size > 0) {
  lines.push(
    `**†** ${baseline.size} of the ${entries.length} files were not mutated again: their counts and survivors are those of the report committed at ${values.baseline},`,
    `whose source each still is. Tests added since can only have killed more of their mutants, so their scores are lower bounds.`,
    '',
  );
}
lines.push(
  'Score = killed (or timed out) / (killed + survived + no coverage). Static mutants (code that runs',
  'only while a module loads: tables, constants) are not run (`ignoreStatic`: each would reload every',
  'test file and run every test); they are counted apart and are not in the score.',
  '',
  '## Score per folder',
  '',
  ...HEADER,
  ...[...byFolder.entries()].map(([folder, counts]) => row(folder, tally(sum(counts)))),
  row('**all mutated files**', tally(all)),
  '',
  '## Score per file',
  '',
  ...HEADER,
  ...entries.map(([path, file]) => row(`${path}${baseline.has(path) ? ' †' : ''}`, tally(file.counts))),
  '',
  '## Surviving mutants in guards',
  '',
  'Each is either killed by a test added for it (then it no longer appears here) or has a reason',
  'in test/mutation/equivalent.json why no input can tell it from the original.',
  '',
);
const left = [];
for (const [path, file] of entries.filter(([p]) => p.startsWith(GUARDS))) {
  if (baseline.has(path)) {
    // Kept from the baseline as it wrote them, reasons and all: the source is the same.
    if (file.survivorLines.length === 0) continue;
    lines.push(`### ${path} †`, '', ...file.survivorLines, '');
    left.push(...file.survivorLines.filter((line) => line.includes('No test kills it yet')).map((line) => `${path}: ${line}`));
    continue;
  }
  const survivors = file.mutants.filter((m) => UNDETECTED.has(m.status));
  if (survivors.length === 0) continue;
  lines.push(`### ${path}`, '');
  for (const m of survivors.sort((a, b) => a.location.start.line - b.location.start.line)) {
    const key = keyOf(path, m, file.source);
    const reason = reasons.get(key);
    if (reason !== undefined) used.add(key);
    else left.push(key);
    const what = `line ${m.location.start.line}, ${m.mutatorName}${m.status === 'NoCoverage' ? ' (no coverage)' : ''}: ${code(original(file.source, m.location))} → ${code(m.replacement ?? '')}`;
    lines.push(`- ${what}. ${reason === undefined ? '**No test kills it yet, no reason written.**' : `Equivalent: ${reason}`}`);
  }
  lines.push('');
}
lines.push(`Guard survivors without a test or a reason: ${left.length}.`, '');
const stale = [...reasons.keys()].filter((key) => !used.has(key) && files.has(key.split(':')[0]));
if (stale.length > 0) lines.push('Reasons that match no surviving mutant any more (stale):', '', ...stale.map((key) => `- ${code(key)}`), '');

const notRun = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `src/${file}`)
  .filter((path) => !files.has(path) && !baseline.has(path))
  .sort();
lines.push(
  '## Files of src/ not in this report',
  '',
  notRun.length === 0 ? 'None: every file was mutated.' : `${notRun.length} files, not mutated by the run(s) above: ${notRun.map((path) => `\`${path}\``).join(', ')}.`,
  '',
);

lines.push('## Surviving mutants elsewhere', '', 'Outside src/guards/, per file, for the next round of tests:', '');
for (const [path, file] of entries.filter(([p]) => !p.startsWith(GUARDS))) {
  const survivors = baseline.has(path)
    ? file.survivorLines
    : file.mutants
        .filter((m) => UNDETECTED.has(m.status))
        .sort((a, b) => a.location.start.line - b.location.start.line)
        .map((m) => `- line ${m.location.start.line}, ${m.mutatorName}${m.status === 'NoCoverage' ? ' (no coverage)' : ''}: ${code(original(file.source, m.location))} → ${code(m.replacement ?? '')}`);
  if (survivors.length === 0) continue;
  lines.push(`<details><summary>${path}${baseline.has(path) ? ' †' : ''}: ${survivors.length}</summary>`, '', ...survivors, '', '</details>', '');
}
writeFileSync(values.out, `${lines.join('\n')}\n`);
console.log(`${values.out}: ${percent(tally(all).score)} over ${entries.length} files (${baseline.size} kept from ${values.baseline ?? 'no baseline'}); ${left.length} guard survivors left`);
