import type { BenchReport } from '../../bench/report.js';
import { Results, summarise } from '../../bench/results.js';
import { judge, TARGETS } from '../../bench/targets.js';

/**
 * A benchmark run made up for tests: each candidate's sequential p50 round by round, the notes
 * given, and everything else fixed; its targets judged as `npm run bench` judges them.
 */
export function madeUpRun(p50: Record<string, number[]>, notes: BenchReport['notes'] = {}): BenchReport {
  const names = Object.keys(p50);
  const rounds = Math.max(...Object.values(p50).map((values) => values.length));
  const made = new Results(names, rounds);
  for (const [name, values] of Object.entries(p50)) values.forEach((value, round) => made.record('sequential.p50_ms', name, round, value));
  const summary = summarise(made);
  return {
    format: 'mcp-gauntlet-bench/1',
    generatedAt: '2026-12-02T06:00:00.000Z',
    durationS: 300,
    machine: { cpus: 2, node: '20.19.0', loadStart: [1, 1, 1], loadEnd: [2, 2, 2], loadHighest: 3 },
    options: { rounds },
    roundsRun: rounds,
    candidates: names.map((name) => ({ name, version: '0.1.0' })),
    summary,
    notes,
    targets: judge(TARGETS, summary),
  };
}
