import { loadTaxonomies, type Taxonomy } from '../taxonomies.js';
import { heldOf } from './areas.js';
import type { Report } from './summary.js';
import { describeCoverage, taxonomyCoverage } from './taxonomy-coverage.js';

/**
 * A run's headline in numbers: what a CI job exposes as its outputs and shows first. Read from a
 * finished report's summary (harness/report/summary.ts), never recomputed from the cases, except
 * for the controls, which the summary does not count apart.
 */
export interface Headline {
  attacks_held: number;
  /** Of attacks_held, those held by a protection the adapter provides itself, not the broker. */
  attacks_held_by_adapter: number;
  attacks_run: number;
  /** Controls judged (pass, fail or error) and how many of them passed. */
  controls_passed: number;
  controls_run: number;
  exposed: number;
  over_blocked: number;
  nonconformant: number;
  errors: number;
  unsupported: number;
}

export function headlineOf(report: Report): Headline {
  const { summary } = report;
  const controls = report.cases.filter((c) => c.kind === 'control' && (c.outcome === 'pass' || c.outcome === 'fail' || c.outcome === 'error'));
  return {
    attacks_held: summary.attacks_held,
    attacks_held_by_adapter: summary.attacks_held_by_adapter ?? 0,
    attacks_run: summary.attacks_total,
    controls_passed: controls.filter((c) => c.outcome === 'pass').length,
    controls_run: controls.length,
    exposed: summary.exposed,
    over_blocked: summary.over_blocked,
    nonconformant: summary.nonconformant,
    errors: summary.errors,
    unsupported: summary.unsupported + summary.unsupported_environment,
  };
}

/** What each exit code of `run` and `merge` means (docs/ci.md), in the words a job summary uses. */
export const EXIT_MEANINGS: Readonly<Record<number, string>> = {
  0: 'passed: every judged scenario passes, or fails only as the baseline expects',
  1: 'failed: a failure or error the baseline does not list, or a stale baseline entry',
  2: 'nothing could be judged: bad options or baseline, an adapter that starts nothing, or an interrupted run',
};

/**
 * Text an adapter chose (its candidate's name and version) shown as plain text in Markdown: on one
 * line, bounded, with every character Markdown or HTML could read as markup escaped.
 */
function plain(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .slice(0, 120)
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&"']/g, (mark) => `\\${mark}`);
}

export interface HeadlineContext {
  /** The exit code of the run or merge that wrote the report. */
  exitCode: number;
  /** Where a reader finds the whole report: an artifact's name, and its address when known. */
  artifact?: { name: string; url?: string };
}

const meaningOf = (exitCode: number): string => EXIT_MEANINGS[exitCode] ?? `an exit code mcp-gauntlet does not give (${exitCode})`;

function artifactLine(artifact: HeadlineContext['artifact']): string[] {
  if (artifact === undefined) return [];
  const name = `\`${artifact.name.replace(/`/g, "'")}\``;
  const where = artifact.url === undefined ? `artifact ${name}` : `artifact [${name}](${encodeURI(artifact.url)})`;
  return [`The whole report (report.html, report.md, report.json, junit.xml): ${where}.`, ''];
}

/**
 * A run's headline as Markdown for a CI job's summary: the verdict the exit code gives, attacks
 * held of run, controls passed, failures by kind, classes held of each public taxonomy (computed
 * from the cases, as report.md does), the baseline's verdict, and where the report is.
 */
export function headlineMarkdown(report: Report, context: HeadlineContext, taxonomies: readonly Taxonomy[] = loadTaxonomies()): string {
  const numbers = headlineOf(report);
  const { summary, baseline } = report;
  const lines = [
    `### mcp-gauntlet: ${plain(report.candidate.name)} ${plain(report.candidate.version)}, exit ${context.exitCode}`,
    '',
    `**${meaningOf(context.exitCode)}.**`,
    '',
    ...(report.incomplete === undefined ? [] : [`> **INCOMPLETE**: the run was interrupted (${plain(report.incomplete.reason)}); ${report.incomplete.not_run.length} selected scenario(s) were not judged.`, '']),
    `**Attacks held: ${heldOf(numbers)}** (held: the attack passes and its benign control passes in the same run); controls passed: ${numbers.controls_passed} of ${numbers.controls_run}.`,
    '',
    '| exposed (claimed / not claimed) | over-blocked | nonconformant | errors | unsupported | scenarios |',
    '|---|---|---|---|---|---|',
    `| ${numbers.exposed} (${summary.exposed_claimed} / ${summary.exposed_not_claimed}) | ${numbers.over_blocked} | ${numbers.nonconformant} | ${numbers.errors} | ${numbers.unsupported} | ${summary.total} |`,
    '',
    ...(taxonomies.length === 0 ? [] : [`Public taxonomies (docs/taxonomies.md): ${taxonomyCoverage(report.cases, taxonomies).map(describeCoverage).join('; ')}.`, '']),
    ...(baseline === undefined
      ? []
      : [`Baseline \`${baseline.file.replace(/`/g, "'")}\`: ${summary.expected_failures ?? 0} expected failure(s), ${summary.unexpected_failures ?? 0} unexpected, ${baseline.stale.length} stale entr${baseline.stale.length === 1 ? 'y' : 'ies'}.`, '']),
    ...artifactLine(context.artifact),
  ];
  return lines.join('\n');
}

/** The Markdown for a run that left no report of its own: its exit code says why, its log says more. */
export function noReportMarkdown(context: HeadlineContext): string {
  return [`### mcp-gauntlet: no report, exit ${context.exitCode}`, '', `**${meaningOf(context.exitCode)}.** The step's log says what stopped the run.`, '', ...artifactLine(context.artifact)].join('\n');
}
