import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Requirement } from '../requirements.js';
import type { CaseResult } from '../run/outcome.js';
import type { Taxonomy } from '../taxonomies.js';
import { boundSide, type Transcript, type TranscriptBound, type TranscriptEntry, type TranscriptLine } from '../run/transcript.js';
import { areaOf, UNLISTED, type Area } from './areas.js';
import { SCRIPT, STYLE } from './page-client.js';
import { areaSummary, candidateList, columnHead, verdictSection, type PageRun } from './page-summary.js';
import { escapeHtml, scriptJson } from './page-text.js';
import { taxonomySection } from './page-taxonomies.js';

/**
 * One self-contained HTML page. It opens on the summary (for one run its verdict first, then held
 * of run by protection area, candidates as columns); below it every scenario as a row, grouped by
 * area and requirement, a cell per case coloured by outcome and failure class, filters, and a
 * drill-down to each case opened under its row. Reports hold hostile strings, so the page is built
 * to show them and never run them: every string in the markup is escaped, the data the drill-down
 * reads is JSON no `</script>` can leave (each run's cases in it gzip-compressed, base64), the
 * script writes text with textContent only, and a Content-Security-Policy lets only the page's
 * own script and style (by hash) run and nothing be fetched.
 */

export interface PageOptions {
  title: string;
  /** Re-bound each case's transcript to this (the index); absent, the report's own bounds stand. */
  transcriptBound?: (c: CaseResult) => TranscriptBound;
  /** The public taxonomies to show coverage of (taxonomies/); none when absent. */
  taxonomies?: readonly Taxonomy[];
}

/** Longest text of one finding's expected or observed value, of a reason, a note or stderr. */
const FIELD_CHARS = 2_000;

const bounded = (text: string): string => (text.length <= FIELD_CHARS ? text : `${text.slice(0, FIELD_CHARS)} … (cut: ${text.length} characters in all)`);
const shown = (value: unknown): string => bounded(typeof value === 'string' ? value : (JSON.stringify(value, null, 1) ?? String(value)));

/** What a cell says and how it is coloured: the outcome, and for a failure its class. */
export function cellClass(c: CaseResult | undefined): string {
  if (c === undefined) return 'absent';
  if (c.outcome === 'fail') return c.failure ?? 'fail';
  return c.outcome === 'unsupported-environment' ? 'unsupported' : c.outcome;
}

/** A side re-cut to a tighter bound, its existing gap kept as the gap's floor. */
function rebound(entries: readonly TranscriptEntry[], bound: TranscriptBound): TranscriptEntry[] {
  const gap = entries.findIndex((entry) => 'dropped' in entry);
  const lines = (list: readonly TranscriptEntry[]) => list.filter((entry): entry is TranscriptLine => !('dropped' in entry));
  if (gap < 0) return boundSide(lines(entries), [], 0, bound);
  const dropped = (entries[gap] as { dropped: number }).dropped;
  return boundSide(lines(entries.slice(0, gap)), lines(entries.slice(gap + 1)), dropped, bound);
}

function transcriptFor(c: CaseResult, options: PageOptions): Transcript | undefined {
  // A report of format 2 has no transcripts.
  const transcript = c.transcript as Transcript | undefined;
  const bound = options.transcriptBound?.(c);
  if (transcript === undefined || bound === undefined) return transcript;
  return { ...transcript, agent: rebound(transcript.agent, bound), server: rebound(transcript.server, bound), bounds: bound };
}

/** What the drill-down shows of one case, every free text bounded. */
function caseDetail(c: CaseResult, options: PageOptions) {
  return {
    outcome: c.outcome,
    failure: c.failure ?? null,
    cell: cellClass(c),
    claimed: c.claimed,
    by_adapter: c.by_adapter ?? null,
    control_outcome: c.control_outcome ?? null,
    duration_ms: c.duration_ms,
    findings: c.findings.map((f) => ({ check: f.check, class: f.class, step: f.step, expectation: bounded(f.expectation), expected: shown(f.expected), observed: shown(f.observed) })),
    unchecked: c.unchecked,
    notes: c.notes.map(bounded),
    reason: c.reason === undefined ? null : bounded(c.reason),
    stderr_tail: c.stderr_tail ? bounded(c.stderr_tail) : null,
    transcript: transcriptFor(c, options) ?? null,
  };
}

/** A requirement's rows: the positions of the scenarios citing it. */
interface Group {
  id: string;
  level: string;
  text: string;
  rows: number[];
}

/** Every scenario under each requirement it cites, requirements in the document's order, under their areas. */
function groupsOf(scenarios: readonly CaseResult[], requirements: readonly Requirement[]): Array<{ area: Area; groups: Group[] }> {
  const known = new Map(requirements.map((r) => [r.id, r]));
  const groups = new Map<string, Group & { area: Area }>(requirements.map((r) => [r.id, { id: r.id, level: r.level, text: r.text, rows: [], area: areaOf(r) }]));
  for (const [index, scenario] of scenarios.entries()) {
    const cited = scenario.requirements.filter((id) => known.has(id));
    for (const id of cited.length > 0 ? cited : [UNLISTED.id]) {
      if (!groups.has(id)) groups.set(id, { id: '', level: '', text: 'scenarios citing no requirement of docs/requirements.md', rows: [], area: UNLISTED });
      groups.get(id)?.rows.push(index);
    }
  }
  const areas = new Map<string, { area: Area; groups: Group[] }>();
  for (const group of groups.values()) {
    if (group.rows.length === 0) continue;
    if (!areas.has(group.area.id)) areas.set(group.area.id, { area: group.area, groups: [] });
    areas.get(group.area.id)?.groups.push(group);
  }
  return [...areas.values()];
}

const CELL_TEXT: Record<string, string> = {
  pass: 'pass',
  exposed: 'exposed',
  'over-blocked': 'over-blocked',
  nonconformant: 'nonconformant',
  error: 'error',
  unsupported: 'unsupported',
  absent: '',
};

const FAILING = new Set(['exposed', 'over-blocked', 'nonconformant', 'fail', 'error']);

/** What the filters test of a row, from its cells: a candidate exposed, one failing, candidates differing. */
interface Flags {
  exposed: boolean;
  failing: boolean;
  differ: boolean;
}

function flagsOf(cells: readonly string[]): Flags {
  const present = cells.filter((cell) => cell !== 'absent');
  return { exposed: present.includes('exposed'), failing: present.some((cell) => FAILING.has(cell)), differ: new Set(present).size > 1 };
}

const anyOf = (flags: readonly Flags[]): Flags => ({ exposed: flags.some((f) => f.exposed), failing: flags.some((f) => f.failing), differ: flags.some((f) => f.differ) });

/** A matrix row's attributes: what the filters test, and the area the summary's cells lead to. */
const rowAttributes = (flags: Flags, area: Area): string =>
  `data-row data-area="${escapeHtml(area.id)}"${flags.exposed ? ' data-exposed' : ''}${flags.failing ? ' data-failing' : ''}${flags.differ ? ' data-differ' : ''}`;

/** The matrix's body: an area heading, its requirements' headings, and each scenario's row of cells. */
function matrixBody(runs: readonly PageRun[], scenarios: readonly CaseResult[], requirements: readonly Requirement[]): string {
  const caseOf = runs.map(({ report }) => new Map(report.cases.map((c) => [c.id, c])));
  const width = runs.length + 1;
  return groupsOf(scenarios, requirements)
    .map(({ area, groups }) => {
      const parts = groups.map((group) => {
        const rows = group.rows.map((scenario) => {
          const s = scenarios[scenario]!;
          const kinds = caseOf.map((cases) => cellClass(cases.get(s.id)));
          // A cell's run is its column, its scenario its row's data-s: the page's script reads them there.
          const cells = kinds.map((kind) => `<td class="cell ${kind}" tabindex="0">${escapeHtml(CELL_TEXT[kind] ?? kind)}</td>`);
          const flags = flagsOf(kinds);
          return { flags, html: `<tr ${rowAttributes(flags, area)} data-s="${scenario}"><th><span title="${escapeHtml(s.title)}">${escapeHtml(s.id)}</span> <span class="muted">${escapeHtml(s.kind)}${s.legacy ? ' · legacy' : ''}</span></th>${cells.join('')}</tr>` };
        });
        const flags = anyOf(rows.map((row) => row.flags));
        const heading = `<tr class="group" ${rowAttributes(flags, area)}><th colspan="${width}">${escapeHtml(`${group.id} ${group.level}`)} <span class="muted">${escapeHtml(group.text)}</span></th></tr>`;
        return { flags, html: [heading, ...rows.map((row) => row.html)].join('\n') };
      });
      const heading = `<tr class="areahead" id="area-${escapeHtml(area.id)}" ${rowAttributes(anyOf(parts.map((part) => part.flags)), area)}><th colspan="${width}">${escapeHtml(area.name)} <span class="muted">${escapeHtml(area.id)}</span></th></tr>`;
      return [heading, ...parts.map((part) => part.html)].join('\n');
    })
    .join('\n');
}

/** A run's cases for the drill-down, gzip-compressed and base64-encoded: the page unpacks them when one is opened. */
const packed = (cases: readonly unknown[]): string => gzipSync(JSON.stringify(cases), { level: 9 }).toString('base64');

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export function renderMatrixPage(runs: readonly PageRun[], requirements: readonly Requirement[], options: PageOptions): string {
  // Every scenario any run has, in id order, described by the first run that has it.
  const byId = new Map<string, CaseResult>();
  for (const { report } of runs) for (const c of report.cases) if (!byId.has(c.id)) byId.set(c.id, c);
  const scenarios = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  const position = new Map(scenarios.map((c, index) => [c.id, index]));
  const data = {
    runs: runs.map(({ report, link }) => {
      const cases: Array<ReturnType<typeof caseDetail> | null> = scenarios.map(() => null);
      for (const c of report.cases) cases[position.get(c.id)!] = caseDetail(c, options);
      return { name: report.candidate.name, ...(link === undefined ? {} : { link }), cases: packed(cases) };
    }),
    scenarios: scenarios.map((c) => ({ id: c.id, title: c.title, file: c.file, kind: c.kind, level: c.level, requirements: c.requirements, claims: c.claims, control: c.control ?? null })),
  };
  const several = runs.length > 1;
  const filters = [
    '<strong>Show</strong> ',
    '<label><input type="checkbox" id="only-exposed"> only rows where a candidate is exposed</label>',
    '<label><input type="checkbox" id="only-failing"> only rows with a failure</label>',
    ...(several ? ['<label><input type="checkbox" id="only-differ"> only rows where candidates differ</label>'] : []),
  ].join('');
  const legend = ['pass', 'exposed', 'over-blocked', 'nonconformant', 'error', 'unsupported'].map((kind) => `<span class="${kind}">${kind}</span>`).join('');
  const incomplete = runs
    .flatMap(({ report }) =>
      report.incomplete === undefined
        ? []
        : [`<p role="alert" class="error">INCOMPLETE: the run of ${escapeHtml(report.candidate.name)} was interrupted (${escapeHtml(report.incomplete.reason)}); ${report.incomplete.not_run.length} selected scenario(s) were not judged.</p>\n`],
    )
    .join('');
  const csp = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(options.title)}</h1><p class="filters">${filters}</p></header>
${incomplete}${several ? '' : `${verdictSection(runs[0]!.report)}\n`}${areaSummary(runs, requirements)}
${taxonomySection(runs, options.taxonomies ?? [])}
${several ? `<section>${candidateList(runs)}</section>\n` : ''}<section id="scenarios">
<h2>Every scenario <span class="muted">click a cell for the case: expected against observed, and its transcript</span></h2>
<p class="legend">${legend}</p>
<table class="matrix" id="matrix">
<thead><tr><th>scenario</th>${runs.map(columnHead).join('')}</tr></thead>
<tbody>
${matrixBody(runs, scenarios, requirements)}
</tbody>
</table>
</section>
<script type="application/json" id="gauntlet-data">${scriptJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
