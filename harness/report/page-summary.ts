import type { Requirement } from '../requirements.js';
import type { CaseResult } from '../run/outcome.js';
import { describeScore } from '../transparency/score.js';
import { areaStanding, casesByArea, heldOf, tally, type Area, type Tally } from './areas.js';
import { escapeHtml } from './page-text.js';
import type { Report } from './summary.js';

/**
 * What the report pages open on: for one run the verdict (attacks held, controls passed, failures
 * by kind), and for one run or many the summary by protection area, candidates as columns, each
 * area cell linking to that area's rows of the matrix below.
 */

/** One run on a page, and where its own report.html is, relative to the page, if linked. */
export interface PageRun {
  report: Report;
  link?: string;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** What the candidate cost in time, when the report says (a merge of shards does not). */
function timeLine(report: Report): string {
  const t = report.timing;
  if (t === undefined) return '';
  const slowest = t.slowest[0] === undefined ? 'none' : `${t.slowest[0].id} ${seconds(t.slowest[0].duration_ms)}`;
  return `${seconds(t.wall_ms)} wall, ${seconds(t.scenario_ms)} of scenarios, slowest ${slowest}`;
}

/** Everything a column header leaves out, for its hover title and the list of candidates. */
function candidateDetails(report: Report): string {
  const { candidate, summary: s } = report;
  return [
    `${candidate.name} ${candidate.version}`,
    `claims ${candidate.claims.join(', ') || 'none'}`,
    ...(candidate.adapterProvides?.length ? [`the adapter provides itself: ${candidate.adapterProvides.map((entry) => entry.protection).join(', ')}`] : []),
    `held ${s.attacks_held}/${s.attacks_total}, exposed ${s.exposed}, over-blocked ${s.over_blocked}, nonconformant ${s.nonconformant}, errors ${s.errors}, unsupported ${s.unsupported + s.unsupported_environment}`,
    timeLine(report),
  ]
    .filter((part) => part !== '')
    .join(' · ');
}

/** A column header: the candidate's name alone (linked to its report.html), the rest on hover. */
export function columnHead({ report, link }: PageRun): string {
  const name = escapeHtml(report.candidate.name);
  return `<th class="cand" title="${escapeHtml(candidateDetails(report))}">${link === undefined ? name : `<a href="${escapeHtml(link)}">${name}</a>`}</th>`;
}

/**
 * Cases by kind of failure, and those that could not run, each kind named as the class its cells
 * are coloured by; over a whole run these are report.json's summary counts.
 */
function kindCounts(cases: readonly CaseResult[]): Array<{ kind: string; count: number; detail?: string }> {
  const exposed = cases.filter((c) => c.kind === 'attack' && c.failure === 'exposed');
  const claimed = exposed.filter((c) => c.claimed).length;
  return [
    { kind: 'exposed', count: exposed.length, detail: `${claimed} claimed, ${exposed.length - claimed} not claimed` },
    { kind: 'over-blocked', count: cases.filter((c) => c.failure === 'over-blocked').length },
    { kind: 'nonconformant', count: cases.filter((c) => c.failure === 'nonconformant').length },
    { kind: 'error', count: cases.filter((c) => c.outcome === 'error').length },
    { kind: 'unsupported', count: cases.filter((c) => c.outcome === 'unsupported' || c.outcome === 'unsupported-environment').length },
  ];
}

/** Whether ordinary traffic still works: every control judged passed. */
const controlsLine = (score: Tally): string =>
  score.controls_run === 0
    ? 'no control judged'
    : score.controls_passed === score.controls_run
      ? 'ordinary traffic still works'
      : `${score.controls_run - score.controls_passed} control(s) failed: ordinary traffic breaks`;

/** Held of run and controls passed in each MCP revision the run's cases spoke; nothing for a report written before. */
function revisionParagraph(report: Report): string {
  const scores = Object.entries(report.summary.by_revision ?? {});
  if (scores.length === 0) return '';
  const parts = scores.map(([revision, score]) => `MCP ${revision}: attacks held ${score.attacks_held} of ${score.attacks_total}, controls passed ${score.controls_passed} of ${score.controls_total}`);
  return `<p id="revisions" class="muted">${escapeHtml(parts.join(' · '))}</p>
`;
}

/** One run's verdict, first on its page. */
export function verdictSection(report: Report): string {
  const score = tally(report.cases);
  const { summary } = report;
  const kinds = kindCounts(report.cases)
    .map(({ kind, count, detail }) => `<li class="${count > 0 ? kind : 'zero'}"><strong>${count}</strong> ${kind}${count > 0 && detail !== undefined ? ` <span class="muted">(${detail})</span>` : ''}</li>`)
    .join('');
  const provided = report.candidate.adapterProvides ?? [];
  const adapterPart = provided.length === 0 ? '' : ` · the adapter provides itself, not the broker: ${provided.map((entry) => `${entry.protection} (${entry.how})`).join('; ')}`;
  const about = `${report.candidate.name} ${report.candidate.version} · claims ${report.candidate.claims.join(', ') || 'none'}${adapterPart} · ${report.suite.name} ${report.suite.version} · run ${report.started_at}${report.filter ? ` · filter ${report.filter}` : ''}${report.timing ? ` · ${timeLine(report)}` : ''}`;
  return `<section id="verdict" class="verdict standing-${areaStanding(score)}">
<p class="headline"><strong id="held">Attacks held: ${heldOf({ ...score, attacks_held: summary.attacks_held, attacks_run: summary.attacks_total })}</strong> <span id="controls">Controls passed: ${score.controls_passed} of ${score.controls_run} (${controlsLine(score)})</span> <strong id="transparency">Transparency: ${escapeHtml(describeScore(report.transparency?.score))}</strong></p>
${revisionParagraph(report)}<ul class="kinds" id="kinds">${kinds}</ul>
<p class="muted">${escapeHtml(about)}</p>
</section>`;
}

/** How one run fared in one area: held of run, coloured, and what leads to the area's rows. */
function areaScore(cases: readonly CaseResult[], area: Area, column: number) {
  const score = tally(cases);
  const byAdapter = score.attacks_held_by_adapter > 0 ? ` (${score.attacks_held_by_adapter} by the adapter)` : '';
  const text = score.attacks_run === 0 ? '–' : `${score.attacks_held} / ${score.attacks_run}${byAdapter}`;
  const title = `${area.name}: ${heldOf(score)} attack(s) held, ${score.exposed} exposed; controls passed ${score.controls_passed} of ${score.controls_run}`;
  // What the page's script reads to take a click to the area's rows of this run's column.
  const attributes = `class="sum ${areaStanding(score)}" tabindex="0" data-area="${escapeHtml(area.id)}" data-c="${column}" title="${escapeHtml(title)}"`;
  const failing = cases.some((c) => c.outcome === 'fail' || c.outcome === 'error');
  return { score, text, attributes, failing };
}

/** The rows over every area, for a page of several runs: their verdicts side by side. */
function totalRows(runs: readonly PageRun[]): string {
  const scores = runs.map(({ report }) => ({ report, score: tally(report.cases) }));
  const row = (label: string, cells: string[]) => `<tr class="total"><th>${label}</th>${cells.join('')}</tr>`;
  const rows = [
    row(
      'attacks held',
      scores.map(({ report, score }) => `<td class="${areaStanding(score)}">${report.summary.attacks_held} / ${report.summary.attacks_total}</td>`),
    ),
    row(
      'transparency <span class="muted">(real servers, preserved of what works direct)</span>',
      runs.map(({ report }) => {
        const measured = report.transparency?.score;
        const standing = measured?.transparency == null ? 'zero' : measured.broken === 0 ? 'held' : 'over-blocked';
        return `<td class="${standing}" title="${escapeHtml(describeScore(measured))}">${measured?.transparency == null ? 'not measured' : `${measured.preserved} / ${measured.applicable}`}</td>`;
      }),
    ),
    row(
      'controls passed <span class="muted">(ordinary traffic)</span>',
      scores.map(({ score }) => `<td class="${score.controls_passed === score.controls_run ? 'held' : 'over-blocked'}">${score.controls_passed} / ${score.controls_run}</td>`),
    ),
  ];
  const counts = runs.map(({ report }) => kindCounts(report.cases));
  for (const [index, { kind }] of counts[0]!.entries()) {
    rows.push(
      row(
        kind,
        counts.map((kinds) => {
          const { count, detail } = kinds[index]!;
          return `<td class="${count > 0 ? kind : 'zero'}"${detail === undefined ? '' : ` title="${detail}"`}>${count}</td>`;
        }),
      ),
    );
  }
  return rows.join('\n');
}

/**
 * The summary by protection area: held of run of each area's attacks, coloured by how the area
 * fared, each leading to the area's rows of the matrix. One run's areas are tiles; several runs'
 * are a table with candidates as columns, under their verdicts side by side, whose rows carry
 * what the page's filters test (a candidate exposed in the area, one failing, candidates differing).
 */
export function areaSummary(runs: readonly PageRun[], requirements: readonly Requirement[]): string {
  const perRun = runs.map(({ report }) => new Map(casesByArea(report.cases, requirements).map((group) => [group.area.id, group.cases])));
  // Every area some run has a case in, in the document's order.
  const areas = casesByArea(
    runs.flatMap(({ report }) => report.cases),
    requirements,
  ).map((group) => group.area);
  const heading = '<h2>By protection area <span class="muted">attacks held of attacks run in each requirement family of docs/requirements.md · click one for its scenarios</span></h2>';
  if (runs.length === 1) {
    const tiles = areas.map((area) => {
      const cases = perRun[0]!.get(area.id) ?? [];
      const { score, text, attributes } = areaScore(cases, area, 0);
      const failures = kindCounts(cases)
        .filter(({ count }) => count > 0)
        .map(({ kind, count }) => ` · ${count} ${kind}`);
      return `<div ${attributes}><strong>${escapeHtml(area.name)}</strong> <span class="muted">${escapeHtml(area.id)}</span><div class="score">${score.attacks_run === 0 ? 'no attack judged' : `${text} held`}${failures.join('')}</div></div>`;
    });
    return `<section id="summary">\n${heading}\n<div class="tiles" id="summary-areas">\n${tiles.join('\n')}\n</div>\n</section>\n${transparencySection(runs[0]!.report)}`;
  }
  const rows = areas.map((area) => {
    const cells = perRun.map((byArea, column) => areaScore(byArea.get(area.id) ?? [], area, column));
    const differ = new Set(cells.map((cell) => cell.text)).size > 1;
    const flags = `${cells.some((cell) => cell.score.exposed > 0) ? ' data-exposed' : ''}${cells.some((cell) => cell.failing) ? ' data-failing' : ''}${differ ? ' data-differ' : ''}`;
    return `<tr class="area" data-row${flags}><th>${escapeHtml(area.name)} <span class="muted">${escapeHtml(area.id)}</span></th>${cells.map((cell) => `<td ${cell.attributes}>${cell.text}</td>`).join('')}</tr>`;
  });
  return `<section id="summary">
<h2>Summary</h2>
<table class="summary" id="summary-areas">
<thead><tr><th></th>${runs.map(columnHead).join('')}</tr></thead>
<tbody>
${totalRows(runs)}
<tr class="sep"><th colspan="${runs.length + 1}">${heading}</th></tr>
${rows.join('\n')}
</tbody>
</table>
</section>`;
}

/**
 * One run's transparency: a tile per suite (preserved of what works direct, changed, broken,
 * coloured as held when nothing is broken), and every operation not preserved with why.
 */
function transparencySection(report: Report): string {
  const { transparency } = report;
  const heading = '<h2>Transparency <span class="muted">benign traffic of real servers, through the candidate against direct (docs/transparency.md)</span></h2>';
  if (transparency === undefined) return `<section id="transparency-summary">\n${heading}\n<p class="muted">not measured in this run</p>\n</section>`;
  const tiles = transparency.suites.map(({ name, title, score }) => {
    const standing = score.transparency === null ? 'zero' : score.broken === 0 ? 'held' : 'over-blocked';
    return `<div class="tile ${standing}" title="${escapeHtml(title)}"><strong>${escapeHtml(name)}</strong><div class="score">${escapeHtml(describeScore(score))}</div></div>`;
  });
  const notPreserved = transparency.results.filter((result) => result.verdict === 'changed' || result.verdict === 'broken');
  const items = notPreserved.map(
    (result) => `<li class="${result.verdict === 'broken' ? 'over-blocked' : 'muted'}"><strong>${result.verdict}</strong>${result.requirement ? ` (${escapeHtml(result.requirement)})` : ''} ${escapeHtml(`${result.suite}: ${result.id}`)}: ${escapeHtml(result.detail.slice(0, 400))}</li>`,
  );
  const list = items.length === 0 ? '' : `\n<details><summary>${items.length} operation(s) not preserved</summary><ul>${items.join('')}</ul></details>`;
  return `<section id="transparency-summary">\n${heading}\n<div class="tiles">\n${tiles.join('\n')}\n</div>${list}\n</section>`;
}

/** Below the summary of several runs: each candidate with what its short column header leaves out. */
export function candidateList(runs: readonly PageRun[]): string {
  const items = runs.map((run) => `<li>${escapeHtml(candidateDetails(run.report))}${run.link === undefined ? '' : ` · <a href="${escapeHtml(run.link)}">report.html</a>`}</li>`);
  return `<details id="candidates"><summary>The candidates</summary><ul>${items.join('')}</ul></details>`;
}
