/**
 * What the benchmark measures: each workload, and each metric with its unit and which way is
 * better. The baseline every ratio is taken against is `direct`, the agent talking to the server
 * with no broker between them.
 */

export const BASELINE = 'direct';

export const WORKLOADS = {
  sequential: 'tools/call of a cheap tool, one after another',
  'in-flight': 'tools/call of a cheap tool, several in flight at once',
  hung: 'calls sent behind a call the server never answers',
  'start-up': 'spawn to tools listed (3 tools)',
  load: 'spawn to tools listed, many tools over several pages',
  large: 'one answer far past any result bound',
} as const;
export type Workload = keyof typeof WORKLOADS;

export interface Metric {
  id: string;
  workload: Workload;
  label: string;
  unit: 'ms' | 'calls/s' | 'MiB';
  better: 'lower' | 'higher';
  /** Whether a ratio to the baseline means something (no broker has no resident growth to compare with). */
  ratio: boolean;
}

export const METRICS = [
  { id: 'sequential.p50_ms', workload: 'sequential', label: 'p50', unit: 'ms', better: 'lower', ratio: true },
  { id: 'sequential.p99_ms', workload: 'sequential', label: 'p99', unit: 'ms', better: 'lower', ratio: true },
  { id: 'sequential.throughput', workload: 'sequential', label: 'throughput', unit: 'calls/s', better: 'higher', ratio: true },
  { id: 'in-flight.throughput', workload: 'in-flight', label: 'throughput', unit: 'calls/s', better: 'higher', ratio: true },
  { id: 'hung.all_answered_ms', workload: 'hung', label: 'all answered', unit: 'ms', better: 'lower', ratio: true },
  { id: 'start-up.listed_ms', workload: 'start-up', label: 'spawn to listed', unit: 'ms', better: 'lower', ratio: true },
  { id: 'load.listed_ms', workload: 'load', label: 'spawn to listed', unit: 'ms', better: 'lower', ratio: true },
  { id: 'load.pin_ms', workload: 'load', label: 'pin', unit: 'ms', better: 'lower', ratio: false },
  { id: 'large.growth_mib', workload: 'large', label: 'resident growth', unit: 'MiB', better: 'lower', ratio: false },
  { id: 'large.after_bound_ms', workload: 'large', label: 'answer after the bound', unit: 'ms', better: 'lower', ratio: false },
  { id: 'large.written_mib', workload: 'large', label: 'written when answered', unit: 'MiB', better: 'lower', ratio: false },
] as const satisfies readonly Metric[];

export type MetricId = (typeof METRICS)[number]['id'];

export function metricOf(id: MetricId): Metric {
  return METRICS.find((metric) => metric.id === id)!;
}
