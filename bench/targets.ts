import type { MetricId } from './metrics.js';
import type { Summary } from './results.js';
import type { Spread } from './stats.js';

/**
 * What issue 11 asks the reference broker to show, each judged on the median over rounds: of the
 * per-round ratio to direct, or of the value itself.
 */
export interface Target {
  id: string;
  text: string;
  metric: MetricId;
  candidate: string;
  of: 'ratio' | 'value';
  compare: '<=' | '>=' | '<';
  threshold: number;
}

export const TARGETS: readonly Target[] = [
  { id: 'call-p50', text: 'reference tools/call p50 / direct', metric: 'sequential.p50_ms', candidate: 'reference', of: 'ratio', compare: '<=', threshold: 1.5 },
  { id: 'call-throughput', text: 'reference sequential throughput / direct', metric: 'sequential.throughput', candidate: 'reference', of: 'ratio', compare: '>=', threshold: 0.7 },
  { id: 'in-flight-throughput', text: 'reference throughput with calls in flight / direct', metric: 'in-flight.throughput', candidate: 'reference', of: 'ratio', compare: '>=', threshold: 0.7 },
  // The issue asks for "as fast as direct"; on a shared machine that is judged with the same slack as a call.
  { id: 'behind-hung', text: 'reference calls behind a hung call, all answered / direct', metric: 'hung.all_answered_ms', candidate: 'reference', of: 'ratio', compare: '<=', threshold: 1.5 },
  { id: 'start-up', text: 'reference spawn to listed / direct', metric: 'start-up.listed_ms', candidate: 'reference', of: 'ratio', compare: '<=', threshold: 1.5 },
  { id: 'load', text: 'reference spawn to listed, many tools / direct', metric: 'load.listed_ms', candidate: 'reference', of: 'ratio', compare: '<=', threshold: 1.5 },
  { id: 'large-growth', text: 'reference resident growth on the large answer (MiB)', metric: 'large.growth_mib', candidate: 'reference', of: 'value', compare: '<', threshold: 16 },
  { id: 'large-refusal', text: 'reference refusal reaching the agent after the server crossed its bound (ms)', metric: 'large.after_bound_ms', candidate: 'reference', of: 'value', compare: '<=', threshold: 100 },
];

/**
 * The candidate every target is also read for, as a yardstick: passthrough relays lines and checks
 * nothing, so what it measures is what a second process in the path costs on its own.
 */
export const YARDSTICK = 'passthrough';

export interface Judgement {
  target: Target;
  /** Undefined when no round measured it: then it is not met. */
  measured?: Spread;
  met: boolean;
  /** The same measure of the yardstick in the same run, when it ran and measured it. */
  yardstick?: Spread;
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

export function judge(targets: readonly Target[], summary: Summary): Judgement[] {
  return targets.map((target) => {
    const read = (candidate: string) => {
      const cell = summary[target.metric]?.[candidate];
      return target.of === 'ratio' ? cell?.ratio : cell?.spread;
    };
    const measured = read(target.candidate);
    const yardstick = read(YARDSTICK);
    return {
      target,
      ...(measured === undefined ? {} : { measured }),
      met: measured !== undefined && holds(measured.median, target.compare, target.threshold),
      ...(yardstick === undefined ? {} : { yardstick }),
    };
  });
}
