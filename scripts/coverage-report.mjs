#!/usr/bin/env node
// Writes reports/coverage.md from c8's istanbul JSON (coverage/coverage-final.json): lines and
// branches of the reference broker per folder of src/ and in total, against the 90% target for
// lines, and every uncovered branch of a guard (src/guards/*) and of the modules a guard imports,
// as file:line. `npm run coverage` runs it after collecting the broker's coverage (docs: the
// script of the same name in package.json). Usage: coverage-report.mjs FINAL_JSON [NOTE]...
// Each NOTE is a line put under "How it was measured".

import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = process.cwd();
const TARGET_LINES = 90;
const [finalJson, ...notes] = process.argv.slice(2);
if (finalJson === undefined) throw new Error('usage: coverage-report.mjs coverage/coverage-final.json [note]...');
const files = Object.values(JSON.parse(readFileSync(finalJson, 'utf8')))
  .map((file) => ({ ...file, name: relative(ROOT, file.path) }))
  .filter((file) => file.name.startsWith('src/') && file.name.endsWith('.ts'));

/** Lines as c8 counts them: a line is covered when every statement on it ran. */
function lineCounts(file) {
  const lines = new Map();
  for (const [id, loc] of Object.entries(file.statementMap)) {
    const line = loc.start.line;
    lines.set(line, (lines.get(line) ?? true) && file.s[id] > 0);
  }
  return { total: lines.size, covered: [...lines.values()].filter(Boolean).length };
}

/** Each branch location with its count; an uncovered one is reported at the line it starts on. */
function branches(file) {
  return Object.entries(file.branchMap).flatMap(([id, branch]) =>
    branch.locations.map((loc, i) => ({ line: loc.start.line ?? branch.line, hit: (file.b[id]?.[i] ?? 0) > 0 })),
  );
}

const folderOf = (name) => (dirname(name) === 'src' ? 'src (top level)' : dirname(name));
const sum = (rows) => rows.reduce((a, r) => ({ lt: a.lt + r.lt, lc: a.lc + r.lc, bt: a.bt + r.bt, bc: a.bc + r.bc }), { lt: 0, lc: 0, bt: 0, bc: 0 });
const rows = files.map((file) => {
  const lines = lineCounts(file);
  const all = branches(file);
  return { name: file.name, folder: folderOf(file.name), lt: lines.total, lc: lines.covered, bt: all.length, bc: all.filter((b) => b.hit).length };
});
const folders = [...new Set(rows.map((r) => r.folder))].sort().map((folder) => ({ folder, ...sum(rows.filter((r) => r.folder === folder)) }));
const total = sum(rows);
const pct = (covered, all) => (all === 0 ? '100.0' : ((100 * covered) / all).toFixed(1));

/** The guards and every module a guard imports directly from src/. */
const guardFiles = files.filter((file) => file.name.startsWith('src/guards/'));
const called = new Set(guardFiles.map((file) => file.name));
for (const file of guardFiles) {
  for (const [, spec] of readFileSync(file.path, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) called.add(relative(ROOT, resolve(dirname(file.path), `${spec}.ts`)));
}
const uncovered = files
  .filter((file) => called.has(file.name))
  .map((file) => ({ name: file.name, lines: [...new Set(branches(file).filter((b) => !b.hit).map((b) => b.line))].sort((a, b) => a - b) }))
  .filter((file) => file.lines.length > 0)
  .sort((a, b) => a.name.localeCompare(b.name));
const uncoveredCount = uncovered.reduce((n, file) => n + file.lines.length, 0);

const out = [];
out.push('# Coverage of the reference broker', '');
out.push(`Lines ${pct(total.lc, total.lt)}% (${total.lc} of ${total.lt}), branches ${pct(total.bc, total.bt)}% (${total.bc} of ${total.bt}) of src/; target ${TARGET_LINES}% of lines: ${Number(pct(total.lc, total.lt)) >= TARGET_LINES ? 'met' : 'not met'}.`, '');
out.push('## How it was measured', '', ...notes.map((note) => `- ${note}`), '');
out.push('## Per folder', '', '| folder | lines | % | branches | % |', '|---|---:|---:|---:|---:|');
for (const f of folders) out.push(`| ${f.folder} | ${f.lc} / ${f.lt} | ${pct(f.lc, f.lt)} | ${f.bc} / ${f.bt} | ${pct(f.bc, f.bt)} |`);
out.push(`| **total** | ${total.lc} / ${total.lt} | ${pct(total.lc, total.lt)} | ${total.bc} / ${total.bt} | ${pct(total.bc, total.bt)} |`, '');
out.push(`## Uncovered guard branches (${uncoveredCount} lines)`, '');
out.push('Branches that never ran, by the line they start on, in src/guards/ and in every module a guard imports. Each is a check no scenario exercised: a candidate for a scenario, or for a sentence saying why it cannot be reached.', '');
for (const file of uncovered) out.push(`- ${file.name}: ${file.lines.join(', ')}`);
out.push('');
process.stdout.write(out.join('\n'));
