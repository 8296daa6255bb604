import type { Report } from './summary.js';

/**
 * The Markdown for what is judged across cases: the baseline's verdict, listing expected failures
 * apart from unexpected ones and naming stale entries, and each profile's score.
 */
export function renderAssessment(report: Report): string[] {
  const lines: string[] = [];
  const verdict = report.baseline;
  if (verdict !== undefined) {
    const { summary } = report;
    lines.push(`## Baseline \`${verdict.file.replace(/`/g, "'")}\``, '');
    lines.push(`${summary.unexpected_failures ?? 0} unexpected failing case(s), ${summary.expected_failures ?? 0} expected, ${verdict.stale.length} stale entr${verdict.stale.length === 1 ? 'y' : 'ies'}; ${verdict.not_judged} entr${verdict.not_judged === 1 ? 'y' : 'ies'} for scenarios not judged in this run.`, '');
    if (verdict.unexpected.length > 0) {
      lines.push('Unexpected (these fail the run):', '', '| scenario | check |', '|---|---|', ...verdict.unexpected.map((u) => `| ${u.scenario} | ${u.check} |`), '');
    }
    if (verdict.stale.length > 0) {
      lines.push('Stale entries (these fail the run):', '', '| scenario | check | why |', '|---|---|---|', ...verdict.stale.map((s) => `| ${s.scenario} | ${s.check} | ${s.why} |`), '');
    }
    if (verdict.expected.length > 0) {
      lines.push('Expected (listed, with the reason given):', '', '| scenario | check | reason |', '|---|---|---|', ...verdict.expected.map((e) => `| ${e.scenario} | ${e.check} | ${e.reason.replace(/[\r\n|]/g, ' ')} |`), '');
    }
  }
  if (report.profiles !== undefined && report.profiles.length > 0) {
    lines.push('## Profiles', '', '| profile | attacks held | controls passed | not in this run |', '|---|---|---|---|');
    for (const p of report.profiles) lines.push(`| ${p.name} v${p.version} | ${p.attacks_held} of ${p.attacks_run} | ${p.controls_passed} of ${p.controls_run} | ${p.missing} |`);
    lines.push('');
  }
  return lines;
}
