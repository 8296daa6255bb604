import { loadRequirements, type Requirement } from '../requirements.js';
import { loadTaxonomies, type Taxonomy } from '../taxonomies.js';
import type { CaseResult } from '../run/outcome.js';
import { describeScore } from '../transparency/score.js';
import { casesByArea, heldOf, tally } from './areas.js';
import { renderAssessment } from './markdown-assessment.js';
import type { Report } from './summary.js';
import { classesNotHeld, describeCoverage, standingWords, taxonomyCoverage } from './taxonomy-coverage.js';

/** Table cells hold hostile text: keep it on one line and unable to break the table. */
function cell(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\|/g, '\\|').slice(0, 300);
}

/** What a case's outcome means for a user of the candidate, in one cell. */
function verdict(c: CaseResult): string {
  if (c.outcome === 'pass' && c.by_adapter !== undefined) return `pass, held by the adapter (${c.by_adapter.join(', ')})`;
  if (c.outcome !== 'fail') return c.outcome;
  const claim = c.kind === 'attack' && c.failure === 'exposed' ? (c.claimed ? ', claimed' : ', not claimed') : '';
  return `fail: ${c.failure}${claim}`;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** What the candidate cost in time: the run's wall time, the scenarios' time added up, and the slowest. */
function timingLines(report: Report): string[] {
  const { timing } = report;
  if (timing === undefined) return [];
  const slowest = timing.slowest.map((c) => `\`${cell(c.id)}\` ${seconds(c.duration_ms)}`).join(', ');
  return [
    `Time: ${seconds(timing.wall_ms)} wall with ${timing.jobs} job(s), ${seconds(timing.scenario_ms)} of scenario time in all (${report.cases.length === 0 ? 0 : (report.cases.length / Math.max(timing.wall_ms / 1000, 0.001)).toFixed(2)} scenarios/s); budgets ${seconds(timing.scenario_budget_ms)} a scenario, ${seconds(timing.run_budget_ms)} the run. Slowest: ${slowest || 'none'}.`,
    '',
  ];
}

/** Held of run by protection area, the grouping report.html and the README's broker table use. */
function areaLines(report: Report, requirements: readonly Requirement[]): string[] {
  const rows = casesByArea(report.cases, requirements).map(({ area, cases }) => {
    const score = tally(cases);
    return `| ${area.name} (${area.id}) | ${heldOf(score)} | ${score.exposed} | ${score.controls_passed} of ${score.controls_run} |`;
  });
  return ['## By protection area', '', '| area | attacks held | exposed | controls passed |', '|---|---|---|---|', ...rows, ''];
}

/**
 * Classes held of each public taxonomy (docs/taxonomies.md), computed from the cases, so a report
 * written before the section gains it when rendered again; each class not held named.
 */
function taxonomyLines(report: Report, taxonomies: readonly Taxonomy[]): string[] {
  const lines = ['## By public taxonomy', '', 'Classes of each published MCP attack taxonomy, a class held when every attack of it judged was held (docs/taxonomies.md).', ''];
  for (const coverage of taxonomyCoverage(report.cases, taxonomies)) {
    const notHeld = classesNotHeld(coverage).map((c) => `${c.id} ${standingWords(c.standing)}${c.attacks_run > 0 ? ` (${c.attacks_held} of ${c.attacks_run} attacks held)` : ''}`);
    lines.push(`- **${describeCoverage(coverage)}**${notHeld.length > 0 ? `: ${notHeld.join('; ')}` : ''}`);
  }
  return [...lines, ''];
}

/** Held of run and controls passed in each MCP revision the run's cases spoke, beside the totals. */
function revisionLines(report: Report): string[] {
  const scores = Object.entries(report.summary.by_revision ?? {});
  if (scores.length === 0) return [];
  const rows = scores.map(([revision, score]) => `| ${revision} | ${score.attacks_held} of ${score.attacks_total} | ${score.controls_passed} of ${score.controls_total} |`);
  return ['| MCP revision | attacks held | controls passed |', '|---|---|---|', ...rows, ''];
}

/** The transparency score, each suite's, and every operation not preserved with why. */
function transparencyLines(report: Report): string[] {
  const { transparency } = report;
  if (transparency === undefined) return ['**Transparency: not measured** (skipped: `--no-transparency`, or a filtered, profiled or sharded run without `--transparency`).', ''];
  const lines = [
    `**Transparency: ${describeScore(transparency.score)}** (benign traffic of real servers through the broker against direct; preserved of what works direct, changed only as a named requirement asks).`,
    '',
    '| transparency suite | score | not applicable | unsupported | time |',
    '|---|---|---|---|---|',
    ...transparency.suites.map((suite) => `| ${cell(suite.name)} | ${describeScore(suite.score)} | ${suite.score.not_applicable} | ${suite.score.unsupported} | ${(suite.duration_ms / 1000).toFixed(1)} s |`),
    '',
  ];
  const notPreserved = transparency.results.filter((result) => result.verdict === 'changed' || result.verdict === 'broken');
  if (notPreserved.length > 0) {
    lines.push('| operation | verdict | requirement | detail |', '|---|---|---|---|');
    for (const result of notPreserved) lines.push(`| ${cell(`${result.suite}: ${result.id}`)} | ${result.verdict} | ${result.requirement ?? ''} | ${cell(result.detail.slice(0, 400))} |`);
    lines.push('');
  }
  return lines;
}

/** What the adapter declared it provides itself, so a reader knows which verdicts are not the broker's. */
function adapterLines(report: Report): string[] {
  const provided = report.candidate.adapterProvides ?? [];
  if (provided.length === 0) return [];
  return [
    "The adapter provides these protections itself, not the broker; a case testing one is the adapter's (\"held by the adapter\"):",
    '',
    ...provided.map((entry) => `- ${cell(entry.protection)}: ${cell(entry.how)}`),
    '',
  ];
}

/** A Markdown summary for people and pull requests, derived from the JSON report. */
export function renderMarkdown(report: Report, requirements: readonly Requirement[] = loadRequirements(), taxonomies: readonly Taxonomy[] = loadTaxonomies()): string {
  const { summary } = report;
  const score = tally(report.cases);
  const lines = [
    `# mcp-gauntlet conformance report: ${report.candidate.name}`,
    '',
    ...(report.incomplete === undefined
      ? []
      : [`> **INCOMPLETE**: the run was interrupted (${report.incomplete.reason}); ${report.incomplete.not_run.length} selected scenario(s) were not judged: ${report.incomplete.not_run.join(', ')}.`, '']),
    `Candidate ${report.candidate.name} ${report.candidate.version}, claims: ${report.candidate.claims.join(', ') || 'none'}.`,
    `Suite ${report.suite.name} ${report.suite.version}; run ${report.started_at}${report.filter ? `; filter \`${report.filter}\`` : ''}.`,
    '',
    `**Attacks held: ${heldOf({ ...score, attacks_held: summary.attacks_held, attacks_run: summary.attacks_total })}** (an attack is held when it passes and its benign control passes in the same run). Controls passed: ${score.controls_passed} of ${score.controls_run} (ordinary traffic the broker must let through).`,
    '',
    ...revisionLines(report),
    ...adapterLines(report),
    `Exposed ${summary.exposed} (${summary.exposed_claimed} claimed, ${summary.exposed_not_claimed} not claimed), over-blocked ${summary.over_blocked}, nonconformant ${summary.nonconformant}; ${summary.passed} passed, ${summary.failed} failed, ${summary.errors} errors, ${summary.unsupported} unsupported, ${summary.unsupported_environment} unsupported-environment, of ${summary.total}.`,
    '',
    ...transparencyLines(report),
    ...timingLines(report),
    ...areaLines(report, requirements),
    ...taxonomyLines(report, taxonomies),
    ...renderAssessment(report),
    '| scenario | kind | requirements | outcome | control |',
    '|---|---|---|---|---|',
    // A legacy scenario (a feature its revision deprecates) says so beside its id.
    ...report.cases.map((c) => `| ${cell(c.id)}${c.legacy ? ' (legacy)' : ''} | ${c.kind} | ${c.requirements.join(' ')} | ${verdict(c)} | ${c.control_outcome ?? ''} |`),
    '',
  ];
  const notPassed = report.cases.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
  if (notPassed.length > 0) {
    lines.push('## What was expected, and what was observed', '');
    for (const c of notPassed) {
      lines.push(`### ${c.id} (${verdict(c)})`, '', c.title, '');
      if (c.reason) lines.push(`Reason: ${cell(c.reason)}`, '');
      if (c.findings.length > 0) {
        lines.push('| step | check | class | expectation | expected | observed |', '|---|---|---|---|---|---|');
        for (const f of c.findings) lines.push(`| ${cell(f.step)} | ${f.check} | ${f.class} | ${cell(f.expectation)} | ${cell(f.expected)} | ${cell(f.observed)} |`);
        lines.push('');
      }
      if (c.stderr_tail) lines.push('The end of the candidate\'s stderr:', '', '```', c.stderr_tail.replace(/```/g, "'''").slice(-2000), '```', '');
    }
  }
  return lines.join('\n');
}
