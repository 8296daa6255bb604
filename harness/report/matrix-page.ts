import { createHash } from 'node:crypto';
import type { Requirement } from '../requirements.js';
import type { CaseResult } from '../run/outcome.js';
import { boundSide, type Transcript, type TranscriptBound, type TranscriptEntry, type TranscriptLine } from '../run/transcript.js';
import type { Report } from './summary.js';

/**
 * One self-contained HTML page: candidates as columns, scenarios grouped by requirement as rows,
 * a cell per case coloured by outcome and failure class, and a drill-down to each case. Reports
 * hold hostile strings, so the page is built to show them and never run them: every string in
 * the markup is escaped, the data the drill-down reads is JSON no `</script>` can leave, the
 * script writes text with textContent only, and a Content-Security-Policy lets only the page's
 * own script and style (by hash) run and nothing be fetched.
 */

/** One run on the page, and where its own report.html is, relative to the page, if linked. */
export interface PageRun {
  report: Report;
  link?: string;
}

export interface PageOptions {
  title: string;
  /** Re-bound each case's transcript to this (the index); absent, the report's own bounds stand. */
  transcriptBound?: (c: CaseResult) => TranscriptBound;
}

/** Longest text of one finding's expected or observed value, of a reason, a note or stderr. */
const FIELD_CHARS = 2_000;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe for HTML content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** JSON that stays data inside a script element: nothing in it can close the element. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

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

const UNGROUPED = 'no requirement';

/** Every scenario under each requirement it cites, requirements in the document's order. */
function groupsOf(scenarios: readonly CaseResult[], requirements: readonly Requirement[]): Group[] {
  const known = new Map(requirements.map((r) => [r.id, r]));
  const groups = new Map<string, Group>(requirements.map((r) => [r.id, { id: r.id, level: r.level, text: r.text, rows: [] }]));
  for (const [index, scenario] of scenarios.entries()) {
    const cited = scenario.requirements.filter((id) => known.has(id));
    for (const id of cited.length > 0 ? cited : [UNGROUPED]) {
      if (!groups.has(id)) groups.set(id, { id, level: '', text: 'scenarios citing no requirement of docs/requirements.md', rows: [] });
      groups.get(id)?.rows.push(index);
    }
  }
  return [...groups.values()].filter((group) => group.rows.length > 0);
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

function summaryLine(report: Report): string {
  const s = report.summary;
  const t = report.timing;
  // What the candidate cost in time, when the report says (a merge of shards does not).
  const time = t === undefined ? '' : ` · ${(t.wall_ms / 1000).toFixed(1)} s wall, ${(t.scenario_ms / 1000).toFixed(1)} s of scenarios, slowest ${t.slowest[0] === undefined ? 'none' : `${t.slowest[0].id} ${(t.slowest[0].duration_ms / 1000).toFixed(1)} s`}`;
  return `held ${s.attacks_held}/${s.attacks_total} · exposed ${s.exposed} · over-blocked ${s.over_blocked} · nonconformant ${s.nonconformant} · errors ${s.errors} · unsupported ${s.unsupported + s.unsupported_environment}${time}`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{padding:12px 16px;border-bottom:1px solid #ddd;background:#fff}
h1{font-size:18px;margin:0 0 4px}
.legend span{display:inline-block;padding:1px 6px;margin-right:4px;border-radius:3px}
main{display:flex;gap:0;align-items:flex-start}
#matrix-wrap{flex:1 1 55%;overflow:auto;max-height:calc(100vh - 80px)}
table.matrix{border-collapse:collapse;font-size:12px}
.matrix th,.matrix td{border:1px solid #e2e2e2;padding:2px 6px;text-align:left;vertical-align:top}
.matrix thead th{position:sticky;top:0;background:#fff;z-index:1}
.matrix tr.group th{background:#eef;font-weight:600}
.matrix td.cell{cursor:pointer;text-align:center;min-width:80px}
.matrix td.cell:focus,.matrix td.cell.selected{outline:2px solid #000}
.pass{background:#c8ecc8}.exposed{background:#f4a3a3}.over-blocked{background:#f7c98b}.nonconformant{background:#f3eb9a}
.error{background:#c9b3e6}.unsupported{background:#e4e4e4;color:#555}.absent{background:#fff}.fail{background:#f4a3a3}
#detail{flex:1 1 45%;padding:12px 16px;max-height:calc(100vh - 80px);overflow:auto;border-left:1px solid #ddd;background:#fff}
#detail pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font-size:12px}
table.findings{border-collapse:collapse;width:100%;font-size:12px}
.findings td,.findings th{border:1px solid #e2e2e2;padding:2px 4px;vertical-align:top;text-align:left}
.sides{display:flex;gap:8px}.side{flex:1 1 50%;min-width:0}
.line{border-bottom:1px solid #eee;padding:2px 0}.line .who{font-size:11px;color:#555}
.gap,.cut{color:#a00;font-style:italic;font-size:11px}
.muted{color:#666}
`;

const SCRIPT = `
(function(){
var data=JSON.parse(document.getElementById('gauntlet-data').textContent);
var detail=document.getElementById('detail');
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined&&text!==null)e.textContent=String(text);return e;}
function section(title){var s=el('section');s.appendChild(el('h3',null,title));detail.appendChild(s);return s;}
var ARROWS={agent:'agent \\u2192 broker',broker:'broker \\u2192 agent'};
var LEDGER={broker:'broker \\u2192 server',server:'server \\u2192 broker'};
function side(parent,title,entries,names,steps){
  var box=el('div','side');box.appendChild(el('h4',null,title));
  if(entries.length===0)box.appendChild(el('p','muted','nothing recorded'));
  entries.forEach(function(entry){
    if(entry.dropped!==undefined){box.appendChild(el('div','gap','\\u2026 '+entry.dropped+' line(s) left out here to keep the report bounded \\u2026'));return;}
    var line=el('div','line');
    var who=entry.ev&&entry.ev!=='recv'&&entry.ev!=='sent'?'server: '+entry.ev:names[entry.from];
    line.appendChild(el('div','who','step '+(steps[entry.step-1]||entry.step)+' \\u00b7 '+who+(entry.pid?' \\u00b7 pid '+entry.pid:'')));
    line.appendChild(el('pre',null,entry.text));
    if(entry.cut_from!==undefined)line.appendChild(el('div','cut','cut: '+entry.text.length+' of '+entry.cut_from+' characters shown'));
    box.appendChild(line);
  });
  parent.appendChild(box);
}
function show(c,s){
  var run=data.runs[c],sc=data.scenarios[s],k=run.cases[s];
  detail.textContent='';
  detail.appendChild(el('h2',null,sc.id));
  detail.appendChild(el('p',null,sc.title));
  var verdict=k?k.cell+(k.failure&&k.outcome==='fail'?' ('+(k.claimed?'claimed':'not claimed')+')':''):'not run';
  var head=el('p');head.appendChild(el('strong',null,run.name+': '));head.appendChild(el('span',k?k.cell:'absent',verdict));detail.appendChild(head);
  detail.appendChild(el('p','muted',sc.kind+' \\u00b7 '+sc.level+' \\u00b7 requirements '+sc.requirements.join(', ')+' \\u00b7 claims '+(sc.claims.join(', ')||'none')+(sc.control?' \\u00b7 control '+sc.control:'')+' \\u00b7 '+sc.file));
  if(run.link){var a=el('a',null,'this case in the run\\u2019s own report');a.href=run.link+'#case='+encodeURIComponent(sc.id);detail.appendChild(a);}
  if(!k)return;
  detail.appendChild(el('p','muted','duration '+k.duration_ms+' ms'+(k.control_outcome?' \\u00b7 its control: '+k.control_outcome:'')));
  if(k.reason!==null){section('Reason').appendChild(el('pre',null,k.reason));}
  var f=section('Expected against observed');
  if(k.findings.length===0)f.appendChild(el('p','muted',k.outcome==='pass'?'every check met':'no check failed'));
  else{var t=el('table','findings');var hr=el('tr');['check','class','step','expectation','expected','observed'].forEach(function(h){hr.appendChild(el('th',null,h));});t.appendChild(hr);
    k.findings.forEach(function(x){var r=el('tr');r.appendChild(el('td',null,x.check));r.appendChild(el('td',null,x.class));r.appendChild(el('td',null,x.step));r.appendChild(el('td',null,x.expectation));var e=el('td');e.appendChild(el('pre',null,x.expected));r.appendChild(e);var o=el('td');o.appendChild(el('pre',null,x.observed));r.appendChild(o);t.appendChild(r);});f.appendChild(t);}
  if(k.unchecked.length>0){var u=section('Not checked (hook missing)');k.unchecked.forEach(function(x){u.appendChild(el('div',null,x.check+' (needs '+x.hook+')'));});}
  if(k.notes.length>0){var n=section('Notes');k.notes.forEach(function(x){n.appendChild(el('pre',null,x));});}
  if(k.stderr_tail){section('End of the candidate\\u2019s stderr').appendChild(el('pre',null,k.stderr_tail));}
  var tr=section('Transcript');
  if(!k.transcript){tr.appendChild(el('p','muted','none recorded'));return;}
  tr.appendChild(el('p','muted','each line cut at '+k.transcript.bounds.line_chars+' characters, each side at about '+k.transcript.bounds.side_chars));
  var sides=el('div','sides');
  side(sides,'agent \\u2194 broker',k.transcript.agent,ARROWS,k.transcript.steps);
  side(sides,'broker \\u2194 server (ledger)',k.transcript.server,LEDGER,k.transcript.steps);
  tr.appendChild(sides);
}
var selected=null;
function pick(cell){if(selected)selected.classList.remove('selected');selected=cell;cell.classList.add('selected');show(Number(cell.dataset.c),Number(cell.dataset.s));}
document.getElementById('matrix').addEventListener('click',function(ev){var cell=ev.target.closest('td.cell');if(cell)pick(cell);});
document.getElementById('matrix').addEventListener('keydown',function(ev){var cell=ev.target.closest('td.cell');if(cell&&(ev.key==='Enter'||ev.key===' ')){ev.preventDefault();pick(cell);}});
var m=/^#case=(.+)$/.exec(location.hash);
if(m){var id=decodeURIComponent(m[1]);var s=data.scenarios.findIndex(function(x){return x.id===id;});var cell=s<0?null:document.querySelector('td.cell[data-c="0"][data-s="'+s+'"]');if(cell){pick(cell);cell.scrollIntoView();}}
})();
`;

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
      return { name: report.candidate.name, ...(link === undefined ? {} : { link }), cases };
    }),
    scenarios: scenarios.map((c) => ({ id: c.id, title: c.title, file: c.file, kind: c.kind, level: c.level, requirements: c.requirements, claims: c.claims, control: c.control ?? null })),
  };
  const caseOf = runs.map(({ report }) => new Map(report.cases.map((c) => [c.id, c])));
  const head = runs
    .map(({ report, link }) => {
      const name = escapeHtml(`${report.candidate.name} ${report.candidate.version}`);
      const title = link === undefined ? name : `<a href="${escapeHtml(link)}">${name}</a>`;
      return `<th>${title}<div class="muted">${escapeHtml(summaryLine(report))}</div></th>`;
    })
    .join('');
  const body = groupsOf(scenarios, requirements)
    .map((group) => {
      const heading = `<tr class="group"><th colspan="${runs.length + 1}">${escapeHtml(`${group.id} ${group.level}`)} <span class="muted">${escapeHtml(group.text)}</span></th></tr>`;
      const rows = group.rows.map((scenario) => {
        const s = scenarios[scenario]!;
        const cells = caseOf.map((cases, c) => {
          const kind = cellClass(cases.get(s.id));
          return `<td class="cell ${kind}" tabindex="0" data-c="${c}" data-s="${scenario}">${escapeHtml(CELL_TEXT[kind] ?? kind)}</td>`;
        });
        return `<tr><th><span title="${escapeHtml(s.title)}">${escapeHtml(s.id)}</span> <span class="muted">${escapeHtml(s.kind)}</span></th>${cells.join('')}</tr>`;
      });
      return [heading, ...rows].join('\n');
    })
    .join('\n');
  const legend = ['pass', 'exposed', 'over-blocked', 'nonconformant', 'error', 'unsupported'].map((kind) => `<span class="${kind}">${kind}</span>`).join('');
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
<header><h1>${escapeHtml(options.title)}</h1><div class="legend">${legend} <span class="muted">click a cell for the case: expected against observed, and its transcript</span></div></header>
${runs.flatMap(({ report }) => (report.incomplete === undefined ? [] : [`<p role="alert" class="error">INCOMPLETE: the run of ${escapeHtml(report.candidate.name)} was interrupted (${escapeHtml(report.incomplete.reason)}); ${report.incomplete.not_run.length} selected scenario(s) were not judged.</p>\n`])).join('')}<main>
<div id="matrix-wrap"><table class="matrix" id="matrix">
<thead><tr><th>scenario</th>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table></div>
<aside id="detail"><p class="muted">Pick a cell.</p></aside>
</main>
<script type="application/json" id="gauntlet-data">${scriptJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
