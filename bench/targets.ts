import { BASELINE, YARDSTICK, type MetricId } from './metrics.js';
import type { Summary } from './results.js';
import { roundRatios, spreadOf, type Spread } from './stats.js';

/**
 * What the reference broker is asked to show, each judged on the median over rounds: of the
 * per-round ratio to another candidate measured in the same round, or of the value itself.
 */
export interface Target {
  id: string;
  /** The issue that set it. */
  issue: number;
  text: string;
  metric: MetricId;
  candidate: string;
  /** For a ratio: the candidate each round's value is divided by, measured in the same round. */
  against?: string;
  compare: '<=' | '>=' | '<';
  threshold: number;
  /** The CPU measure shown beside the target, of its candidate and of the yardstick (passthrough). */
  cpu?: MetricId;
}

/**
 * Issue 35 re-based the targets of issue 11 on passthrough: a Node broker cannot be cheaper than
 * a Node relay that checks nothing, so the reference is judged on what its checks and its own
 * per-call costs add to that floor. Throughput with calls in flight stays judged against direct.
 * The two large-answer targets are issue 11's, unchanged.
 */
export const TARGETS: readonly Target[] = [
  { id: 'call-p50', issue: 35, text: 'reference tools/call p50', metric: 'sequential.p50_ms', candidate: 'reference', against: YARDSTICK, compare: '<=', threshold: 1.25, cpu: 'sequential.cpu_us' },
  { id: 'call-cpu', issue: 35, text: 'reference broker CPU per warm call', metric: 'sequential.cpu_us', candidate: 'reference', against: YARDSTICK, compare: '<=', threshold: 2, cpu: 'sequential.cpu_us' },
  { id: 'in-flight-throughput', issue: 35, text: 'reference throughput with calls in flight', metric: 'in-flight.throughput', candidate: 'reference', against: BASELINE, compare: '>=', threshold: 0.7, cpu: 'in-flight.cpu_us' },
  { id: 'start-up', issue: 35, text: 'reference spawn to listed', metric: 'start-up.listed_ms', candidate: 'reference', against: YARDSTICK, compare: '<=', threshold: 1.15, cpu: 'start-up.cpu_ms' },
  { id: 'load', issue: 35, text: 'reference spawn to listed, many tools', metric: 'load.listed_ms', candidate: 'reference', against: YARDSTICK, compare: '<=', threshold: 1.25, cpu: 'load.cpu_ms' },
  { id: 'large-growth', issue: 11, text: 'reference resident growth on the large answer (MiB)', metric: 'large.growth_mib', candidate: 'reference', compare: '<', threshold: 16 },
  { id: 'large-refusal', issue: 11, text: 'reference refusal reaching the agent after the server crossed its bound (ms)', metric: 'large.after_bound_ms', candidate: 'reference', compare: '<=', threshold: 100 },
];

export interface Judgement {
  target: Target;
  /** Undefined when no round measured it: then it is not met. */
  measured?: Spread;
  met: boolean;
  /** The target's CPU measure over rounds, of its candidate and of the yardstick; a side no round measured is absent. */
  cpu?: { candidate?: Spread; yardstick?: Spread };
}

function holds(value: number, compare: Target['compare'], threshold: number): boolean {
  switch (compare) {
    case '<=':
      return value <= threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
  }
}

/** The CPU measure shown beside a target; undefined when the target has none. */
function cpuBeside(target: Target, summary: Summary): Judgement['cpu'] {
  if (target.cpu === undefined) return undefined;
  const cells = summary[target.cpu];
  const candidate = cells?.[target.candidate]?.spread;
  const yardstick = cells?.[YARDSTICK]?.spread;
  return { ...(candidate === undefined ? {} : { candidate }), ...(yardstick === undefined ? {} : { yardstick }) };
}

export function judge(targets: readonly Target[], summary: Summary): Judgement[] {
  return targets.map((target) => {
    const cells = summary[target.metric];
    const rounds = cells?.[target.candidate]?.rounds ?? [];
    const measured = target.against === undefined ? spreadOf(rounds) : spreadOf(roundRatios(rounds, cells?.[target.against]?.rounds ?? []));
    const cpu = cpuBeside(target, summary);
    return {
      target,
      ...(measured === undefined ? {} : { measured }),
      met: measured !== undefined && holds(measured.median, target.compare, target.threshold),
      ...(cpu === undefined ? {} : { cpu }),
    };
  });
}
