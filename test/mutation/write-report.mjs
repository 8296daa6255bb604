#!/usr/bin/env node
// Writes reports/mutation.md from one or more Stryker JSON reports (mutation-testing-report-schema).
// Each run of `npm run mutation` (or of a part: `--mutate 'src/guards/**/*.ts'`) writes one; a
// later report's result for a mutant replaces an earlier one's, so parts run at different times
// (and re-runs of a few lines) add up.
// Surviving mutants in src/guards/ are matched against test/mutation/equivalent.json, the
// written reason why each one cannot change what the broker does; a survivor with no reason is
// listed as work left, and a reason that matches no survivor is listed as stale.
//
//   node test/mutation/write-report.mjs [--command TEXT [--minutes N]]... [--note TEXT]... report.json|progress.jsonl...

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    out: { type: 'string', default: 'reports/mutation.md' },
    equivalent: { type: 'string', default: 'test/mutation/equivalent.json' },
    minutes: { type: 'string', multiple: true, default: [] },
    command: { type: 'string', multiple: true, default: [] },
    note: { type: 'string', multiple: true, default: [] },
  },
  allowPositionals: true,
});
if (positionals.length === 0) throw new Error('name at least one Stryker JSON report');

const DETECTED = new Set(['Killed', 'Timeout']);
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

function tally(mutants) {
  const count = (set) => mutants.filter((m) => set.has(m.status)).length;
  const detected = count(DETECTED);
  const undetected = count(UNDETECTED);
  const noCoverage = mutants.filter((m) => m.status === 'NoCoverage').length;
  const ignored = mutants.filter((m) => m.status === 'Ignored').length;
  const errors = mutants.filter((m) => m.status === 'CompileError' || m.status === 'RuntimeError').length;
  const valid = detected + undetected;
  return {
    total: mutants.length,
    detected,
    survived: undetected - noCoverage,
    noCoverage,
    ignored,
    errors,
    score: valid === 0 ? NaN : (100 * detected) / valid,
    covered: valid - noCoverage === 0 ? NaN : (100 * detected) / (valid - noCoverage),
  };
}
const percent = (value) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)}%`);
const row = (name, t) =>
  `| ${name} | ${t.total} | ${t.detected} | ${t.survived} | ${t.noCoverage} | ${t.ignored} | ${t.errors} | **${percent(t.score)}** | ${percent(t.covered)} |`;
const HEADER = [
  '| | mutants | killed | survived | no coverage | static (not run) | errors | score | score of covered |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];

const entries = [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
const all = entries.flatMap(([, file]) => file.mutants);
const byFolder = new Map();
for (const [path, file] of entries) {
  const folder = path.split('/').slice(0, 2).join('/');
  byFolder.set(folder, [...(byFolder.get(folder) ?? []), ...file.mutants]);
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
lines.push(
  'Score = killed (or timed out) / (killed + survived + no coverage). Static mutants (code that runs',
  'only while a module loads: tables, constants) are not run (`ignoreStatic`: each would reload every',
  'test file and run every test); they are counted apart and are not in the score.',
  '',
  '## Score per folder',
  '',
  ...HEADER,
  ...[...byFolder.entries()].map(([folder, mutants]) => row(folder, tally(mutants))),
  row('**all mutated files**', tally(all)),
  '',
  '## Score per file',
  '',
  ...HEADER,
  ...entries.map(([path, file]) => row(path, tally(file.mutants))),
  '',
  '## Surviving mutants in guards',
  '',
  'Each is either killed by a test added for it (then it no longer appears here) or has a reason',
  'in test/mutation/equivalent.json why no input can tell it from the original.',
  '',
);
const left = [];
for (const [path, file] of entries.filter(([p]) => p.startsWith(GUARDS))) {
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
  .filter((path) => !files.has(path))
  .sort();
lines.push(
  '## Files of src/ not in this report',
  '',
  notRun.length === 0 ? 'None: every file was mutated.' : `${notRun.length} files, not mutated by the run(s) above: ${notRun.map((path) => `\`${path}\``).join(', ')}.`,
  '',
);

lines.push('## Surviving mutants elsewhere', '', 'Outside src/guards/, per file, for the next round of tests:', '');
for (const [path, file] of entries.filter(([p]) => !p.startsWith(GUARDS))) {
  const survivors = file.mutants.filter((m) => UNDETECTED.has(m.status));
  if (survivors.length === 0) continue;
  lines.push(
    `<details><summary>${path}: ${survivors.length}</summary>`,
    '',
    ...survivors
      .sort((a, b) => a.location.start.line - b.location.start.line)
      .map((m) => `- line ${m.location.start.line}, ${m.mutatorName}${m.status === 'NoCoverage' ? ' (no coverage)' : ''}: ${code(original(file.source, m.location))} → ${code(m.replacement ?? '')}`),
    '',
    '</details>',
    '',
  );
}
writeFileSync(values.out, `${lines.join('\n')}\n`);
console.log(`${values.out}: ${percent(tally(all).score)} over ${files.size} files; ${left.length} guard survivors left`);
