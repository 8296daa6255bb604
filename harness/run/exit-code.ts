import type { Report } from '../report/summary.js';

/**
 * The run's exit code (docs/ci.md): 0 conformant, or only failures the baseline expects; 1 an
 * unexpected failure or error, or a stale baseline entry; 2 nothing could be judged, or the run was
 * interrupted. (A baseline that cannot be used, or a run that cannot start, ends with 2 before a
 * report exists.)
 */
export function exitCodeOf(report: Report): number {
  const { summary } = report;
  // An interrupted run judged only part of its selection: never a pass.
  if (report.incomplete !== undefined) return 2;
  // An empty shard of a small selection judged nothing and had nothing to judge.
  if (summary.total === 0) return report.shard === undefined ? 2 : 0;
  // Nothing judged (every case unsupported or an error, as for an adapter that starts nothing).
  if (summary.passed + summary.failed === 0) return 2;
  if (report.baseline !== undefined) return (summary.unexpected_failures ?? 0) + report.baseline.stale.length > 0 ? 1 : 0;
  return summary.failed + summary.errors > 0 ? 1 : 0;
}

/** Lines naming what fails the run against its baseline, for stderr. */
export function baselineProblems(report: Report): string[] {
  const verdict = report.baseline;
  if (verdict === undefined) return [];
  return [
    ...verdict.unexpected.map((u) => `unexpected failure (not in ${verdict.file}): ${u.scenario} ${u.check}`),
    ...verdict.stale.map((s) => `stale baseline entry (${s.why}): ${s.scenario} ${s.check}`),
  ];
}
