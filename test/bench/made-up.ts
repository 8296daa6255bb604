import type { MetricId } from '../../bench/metrics.js';
import { FORMAT, type BenchReport } from '../../bench/report.js';
import { Results, summarise } from '../../bench/results.js';
import { judge, TARGETS } from '../../bench/targets.js';

/** Round by round values of some metrics, by candidate. */
export type Measures = Partial<Record<MetricId, Record<string, Array<number | null>>>>;

/**
 * A benchmark run made up for tests: each candidate's sequential p50 round by round, the notes
 * given, any other measures given, and everything else fixed; its targets judged as `npm run
 * bench` judges them, and its CPU read at 100 ticks a second.
 */
export function madeUpRun(p50: Record<string, number[]>, notes: BenchReport['notes'] = {}, more: Measures = {}): BenchReport {
  const names = Object.keys(p50);
  const rounds = Math.max(...Object.values(p50).map((values) => values.length));
  const made = new Results(names, rounds);
  for (const [metric, byCandidate] of Object.entries({ ...more, 'sequential.p50_ms': p50 })) {
    for (const [name, values] of Object.entries(byCandidate)) values.forEach((value, round) => made.record(metric as MetricId, name, round, value));
  }
  const summary = summarise(made);
  return {
    format: FORMAT,
    generatedAt: '2026-12-02T06:00:00.000Z',
    durationS: 300,
    machine: { cpus: 2, node: '20.19.0', loadStart: [1, 1, 1], loadEnd: [2, 2, 2], loadHighest: 3 },
    options: { rounds, warmUp: 2000 },
    roundsRun: rounds,
    candidates: names.map((name) => ({ name, version: '0.1.0' })),
    cpu: { ticksPerSecond: 100 },
    summary,
    notes,
    targets: judge(TARGETS, summary),
  };
}
