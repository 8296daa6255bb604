/**
 * What the benchmark measures: each workload, and each metric with its unit, which way is
 * better, and the candidate its per-round ratio is taken against. Wall-clock ratios are taken
 * against `direct`, the agent talking to the server with no broker between them; a broker's CPU
 * against `passthrough`, since direct has no broker to spend any.
 */

export const BASELINE = 'direct';

/**
 * The relay that checks nothing: passthrough relays lines, so what it measures is what a second
 * process in the path costs on its own. Every target of issue 35 is taken against it.
 */
export const YARDSTICK = 'passthrough';

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
  unit: 'ms' | 'calls/s' | 'MiB' | 'µs/call';
  better: 'lower' | 'higher';
  /**
   * The candidate each round's value is divided by, where a ratio means something: none for a
   * resident growth, which direct has no broker to show.
   */
  ratioTo?: typeof BASELINE | typeof YARDSTICK;
  /** For a CPU metric: whose processes it reads (bench/cpu.ts). */
  cpuOf?: 'broker' | 'server';
}

/**
 * The two CPU measures of a workload, read together (bench/cpu.ts): the broker's processes',
 * taken against passthrough, and its server's, taken against direct's server (the same work).
 */
function cpuMetrics<W extends Workload, S extends 'us' | 'ms'>(workload: W, suffix: S, unit: S extends 'us' ? 'µs/call' : 'ms') {
  return [
    { id: `${workload}.cpu_${suffix}`, workload, label: 'broker CPU', unit, better: 'lower', ratioTo: YARDSTICK, cpuOf: 'broker' },
    { id: `${workload}.server_cpu_${suffix}`, workload, label: 'server CPU', unit, better: 'lower', ratioTo: BASELINE, cpuOf: 'server' },
  ] as const;
}

export const METRICS = [
  { id: 'sequential.p50_ms', workload: 'sequential', label: 'p50', unit: 'ms', better: 'lower', ratioTo: BASELINE },
  { id: 'sequential.p99_ms', workload: 'sequential', label: 'p99', unit: 'ms', better: 'lower', ratioTo: BASELINE },
  { id: 'sequential.throughput', workload: 'sequential', label: 'throughput', unit: 'calls/s', better: 'higher', ratioTo: BASELINE },
  ...cpuMetrics('sequential', 'us', 'µs/call'),
  { id: 'in-flight.throughput', workload: 'in-flight', label: 'throughput', unit: 'calls/s', better: 'higher', ratioTo: BASELINE },
  ...cpuMetrics('in-flight', 'us', 'µs/call'),
  { id: 'hung.all_answered_ms', workload: 'hung', label: 'all answered', unit: 'ms', better: 'lower', ratioTo: BASELINE },
  { id: 'start-up.listed_ms', workload: 'start-up', label: 'spawn to listed', unit: 'ms', better: 'lower', ratioTo: BASELINE },
  ...cpuMetrics('start-up', 'ms', 'ms'),
  { id: 'load.listed_ms', workload: 'load', label: 'spawn to listed', unit: 'ms', better: 'lower', ratioTo: BASELINE },
  ...cpuMetrics('load', 'ms', 'ms'),
  { id: 'load.pin_ms', workload: 'load', label: 'pin', unit: 'ms', better: 'lower' },
  { id: 'large.growth_mib', workload: 'large', label: 'resident growth', unit: 'MiB', better: 'lower' },
  { id: 'large.after_bound_ms', workload: 'large', label: 'answer after the bound', unit: 'ms', better: 'lower' },
  { id: 'large.written_mib', workload: 'large', label: 'written when answered', unit: 'MiB', better: 'lower' },
] as const satisfies readonly Metric[];

export type MetricId = (typeof METRICS)[number]['id'];

export function metricOf(id: MetricId): Metric {
  return METRICS.find((metric) => metric.id === id)!;
}

/** The metrics that read CPU, by workload and whose: what a CPU measurement of a workload is recorded as. */
export function cpuMetric(workload: Workload, of: 'broker' | 'server'): MetricId | undefined {
  return (METRICS as ReadonlyArray<Metric & { id: MetricId }>).find((metric) => metric.workload === workload && metric.cpuOf === of)?.id;
}
