import { attachControlOutcomes } from '../run/controls.js';
import type { CaseResult } from '../run/outcome.js';
import { REPORT_FORMAT, summarise, type Report } from './summary.js';

/** Shard reports that cannot be one report; the message names the folder and the problem. */
export class MergeError extends Error {}

export interface ShardReport {
  /** Where the report was read from, to name it in a problem. */
  dir: string;
  report: Report;
}

const sameness = (r: Report) => ({
  suite: JSON.stringify(r.suite),
  candidate: JSON.stringify(r.candidate),
  selection: JSON.stringify({ filter: r.filter, profile: r.profile ?? null }),
});

/**
 * One report from the reports of every shard of one run: the same suite version, candidate and
 * selection, each shard i/n exactly once. Cases are put back in catalogue order (`order`) and
 * control outcomes and the summary are recomputed from the merged cases; the transparency score
 * is the one shard's that measured it.
 */
export function mergeShards(shards: readonly ShardReport[], order: readonly string[]): Report {
  const first = shards[0];
  if (first === undefined) throw new MergeError('no shard report to merge');
  for (const { dir, report } of shards) {
    if (report.format !== REPORT_FORMAT) throw new MergeError(`${dir}: report format ${String(report.format)}, not ${REPORT_FORMAT}`);
    // An interrupted shard judged only part of its scenarios: merged, the rest would read as never selected.
    if (report.incomplete !== undefined) throw new MergeError(`${dir}: the run was interrupted (${report.incomplete.reason}); run the shard again`);
    for (const [what, value] of Object.entries(sameness(report))) {
      const expected = sameness(first.report)[what as keyof ReturnType<typeof sameness>];
      if (value !== expected) throw new MergeError(`${dir}: a different ${what} (${value}) from ${first.dir} (${expected})`);
    }
  }
  const count = first.report.shard?.count ?? 1;
  const byIndex = new Map<number, string>();
  for (const { dir, report } of shards) {
    const shard = report.shard ?? { index: 1, count: 1 };
    if (shard.count !== count) throw new MergeError(`${dir}: shard ${shard.index}/${shard.count}, but ${first.dir} is one of ${count}`);
    const other = byIndex.get(shard.index);
    if (other !== undefined) throw new MergeError(`${dir}: shard ${shard.index}/${count} overlaps ${other}, the same shard`);
    byIndex.set(shard.index, dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) throw new MergeError(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`);
  const seen = new Map<string, string>();
  for (const { dir, report } of shards) {
    for (const c of report.cases) {
      const other = seen.get(c.id);
      if (other !== undefined) throw new MergeError(`${dir}: scenario ${c.id} is also in ${other}; shards overlap`);
      seen.set(c.id, dir);
    }
  }
  const position = new Map(order.map((id, index) => [id, index]));
  const rank = (c: CaseResult) => position.get(c.id) ?? order.length;
  const cases = shards.flatMap(({ report }) => report.cases.map((c) => structuredClone(c))).sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : 1));
  attachControlOutcomes(cases);
  // The transparency score is the candidate's, not a shard's: a whole run's shard 1 measures it
  // by default, and one shard measuring it is the run's; two would be two scores for one run.
  const measured = shards.filter(({ report }) => report.transparency !== undefined);
  if (measured.length > 1) throw new MergeError(`${measured[1]!.dir}: transparency measured again (also in ${measured[0]!.dir}); measure it in one shard`);
  const merged: Report = {
    ...first.report,
    started_at: shards.map(({ report }) => report.started_at).sort()[0]!,
    finished_at: shards.map(({ report }) => report.finished_at).sort().at(-1)!,
    summary: summarise(cases),
    cases,
  };
  delete merged.shard;
  if (measured[0] === undefined) delete merged.transparency;
  else merged.transparency = measured[0].report.transparency;
  // One shard's timing is not the merged run's: each shard's report keeps its own.
  delete merged.timing;
  delete merged.profiles;
  delete merged.taxonomies;
  delete merged.baseline;
  return merged;
}
