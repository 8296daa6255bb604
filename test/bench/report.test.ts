/**
 * The benchmark's arithmetic and its judgement, on made-up rounds: medians and percentiles, the
 * per-round ratio to direct or passthrough, a target met or not from the median, the CPU shown
 * beside it, and the report and README section written from them. Nothing here runs a broker.
 */
import { describe, expect, it } from 'vitest';
import { README_END, README_START, readmeBlock, replaceSection } from '../../bench/readme.js';
import { cellText, renderMarkdown, targetsTable } from '../../bench/report.js';
import { Results, summarise } from '../../bench/results.js';
import { median, percentile, roundRatios, spreadOf } from '../../bench/stats.js';
import { judge, TARGETS, type Target } from '../../bench/targets.js';
import { madeUpRun } from './made-up.js';

describe('the statistics', () => {
  it('takes the median of odd and even counts, and of nothing undefined', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });

  it('takes nearest-rank percentiles', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });

  it('spreads only the rounds that measured something', () => {
    expect(spreadOf([2, null, 6, 4])).toEqual({ median: 4, min: 2, max: 6, n: 3 });
    expect(spreadOf([null, null])).toBeUndefined();
  });

  it('takes ratios round by round, none where a side is missing or the baseline is zero', () => {
    expect(roundRatios([2, 3, null, 5], [1, 2, 4, 0])).toEqual([2, 1.5, null, null]);
  });
});

describe('the summary and the targets', () => {
  /** Round by round p50 of reference and of the candidate a target takes it against. */
  function results(reference: Array<number | null>, against: Array<number | null>, name = 'passthrough'): Results {
    const made = new Results(['direct', 'reference', name].filter((value, i, all) => all.indexOf(value) === i), reference.length);
    reference.forEach((value, round) => made.record('sequential.p50_ms', 'reference', round, value));
    against.forEach((value, round) => made.record('sequential.p50_ms', name, round, value));
    return made;
  }
  const p50: Target = TARGETS.find((target) => target.id === 'call-p50')!;

  it('gives the median of the per-round ratios, not the ratio of the medians', () => {
    // Medians 2 and 2 (ratio 1); per round 4, 1, 0.5: median 1 as well, but from other rounds.
    const summary = summarise(results([4, 2, 1], [1, 2, 2], 'direct'));
    expect(summary['sequential.p50_ms']!.reference!.ratio).toEqual({ median: 1, min: 0.5, max: 4, n: 3 });
    // direct has no ratio to itself.
    expect(summary['sequential.p50_ms']!.direct!.ratio).toBeUndefined();
  });

  it('takes a broker CPU ratio against passthrough, and the server CPU ratio against direct', () => {
    const made = new Results(['direct', 'reference', 'passthrough'], 2);
    made.record('sequential.cpu_us', 'reference', 0, 300);
    made.record('sequential.cpu_us', 'reference', 1, 200);
    made.record('sequential.cpu_us', 'passthrough', 0, 100);
    made.record('sequential.cpu_us', 'passthrough', 1, 100);
    made.record('sequential.server_cpu_us', 'direct', 0, 100);
    made.record('sequential.server_cpu_us', 'reference', 0, 110);
    const summary = summarise(made);
    expect(summary['sequential.cpu_us']!.reference!.ratio).toEqual({ median: 2.5, min: 2, max: 3, n: 2 });
    expect(summary['sequential.cpu_us']!.passthrough!.ratio).toBeUndefined();
    // direct has no broker: no cell of its own, and none of the others' is taken against it.
    expect(summary['sequential.cpu_us']!.direct).toEqual({ rounds: [null, null] });
    expect(summary['sequential.server_cpu_us']!.reference!.ratio!.median).toBeCloseTo(1.1);
  });

  it('meets a target from the median of the ratios to passthrough in the same round, and misses it past the threshold', () => {
    expect(judge([p50], summarise(results([1.2, 2.5, 9], [1, 2, 1])))[0]).toMatchObject({ met: true, measured: { median: 1.25 } });
    expect(judge([p50], summarise(results([1.3, 1.3, 1], [1, 1, 1])))[0]).toMatchObject({ met: false, measured: { median: 1.3 } });
  });

  it('never meets a target nothing measured, nor one whose other side is missing', () => {
    expect(judge([p50], summarise(results([null, null], [1, 1])))[0]).toMatchObject({ target: p50, met: false });
    expect(judge([p50], summarise(results([1, 1], [null, null])))[0]).not.toHaveProperty('measured');
    // Without passthrough in the run, a target taken against it is not measured.
    expect(judge([p50], summarise(results([1, 1], [1, 1], 'direct')))[0]).toMatchObject({ met: false });
  });

  it("shows the reference's and passthrough's CPU beside a target, and judges the target on its own measure", () => {
    const run = madeUpRun({ direct: [1, 1], reference: [3, 3], passthrough: [1, 1] }, {}, { 'sequential.cpu_us': { reference: [400, 500], passthrough: [100, 120] } });
    const [judged] = judge([p50], run.summary);
    expect(judged).toMatchObject({ met: false, measured: { median: 3 }, cpu: { candidate: { median: 450, min: 400, max: 500 }, yardstick: { median: 110 } } });
    // The CPU target itself: 4x and 4.17x in the two rounds.
    const cpu = judge(TARGETS, run.summary).find(({ target }) => target.id === 'call-cpu');
    expect(cpu).toMatchObject({ met: false, measured: { min: 4, n: 2 } });
    // A target without a CPU measure of its own has none beside it.
    expect(judge(TARGETS, run.summary).find(({ target }) => target.id === 'large-growth')).not.toHaveProperty('cpu');
  });

  it('judges a value target on the value, and a higher-is-better ratio against direct from below', () => {
    const made = new Results(['direct', 'reference'], 2);
    made.record('large.growth_mib', 'reference', 0, 15.9);
    made.record('large.growth_mib', 'reference', 1, 16.1);
    made.record('in-flight.throughput', 'reference', 0, 70);
    made.record('in-flight.throughput', 'direct', 0, 100);
    const judged = judge(TARGETS, summarise(made));
    // Median 16.0 is not < 16.
    expect(judged.find(({ target }) => target.id === 'large-growth')).toMatchObject({ met: false, measured: { median: 16 } });
    expect(judged.find(({ target }) => target.id === 'in-flight-throughput')).toMatchObject({ met: true, measured: { median: 0.7 } });
  });

  it('re-bases every wall-clock and CPU target of issue 35 on passthrough but throughput in flight, and keeps the large targets of issue 11', () => {
    const against = Object.fromEntries(TARGETS.map((target) => [target.id, `${target.issue} ${target.against ?? 'value'} ${target.compare} ${target.threshold}`]));
    expect(against).toEqual({
      'call-p50': '35 passthrough <= 1.25',
      'call-cpu': '35 passthrough <= 2',
      'in-flight-throughput': '35 direct >= 0.7',
      'start-up': '35 passthrough <= 1.15',
      load: '35 passthrough <= 1.25',
      'large-growth': '11 value < 16',
      'large-refusal': '11 value <= 100',
    });
  });
});

describe('the report', () => {
  const report = madeUpRun(
    { direct: [0.2, 0.25, 0.3], reference: [0.3, 0.5, 0.36], passthrough: [0.22, 0.3, 0.3] },
    { reference: { large: ['answer: refused with result_too_large'] } },
    {
      'sequential.cpu_us': { reference: [700, 650, 720], passthrough: [70, 65, 80] },
      'sequential.server_cpu_us': { direct: [100, 100, 100], reference: [110, 100, 90], passthrough: [100, 100, 100] },
    },
  );
  const { summary } = report;

  it('shows each cell as median (range) and the ratio to direct', () => {
    expect(cellText(summary['sequential.p50_ms']!.reference)).toBe('0.360 (0.300–0.500) · 1.50x (1.20–2.00)');
    expect(cellText(summary['sequential.p50_ms']!.direct)).toBe('0.250 (0.200–0.300)');
    expect(cellText(summary['large.growth_mib']!.reference)).toBe('–');
  });

  it('lists every target with its measurement, its verdict and the CPU beside it', () => {
    const table = targetsTable(report.targets);
    expect(table.split('\n')).toHaveLength(2 + TARGETS.length);
    // Per round 0.3/0.22, 0.5/0.3, 0.36/0.3: 1.36, 1.67, 1.20.
    expect(table).toContain('| 35 | reference tools/call p50 | passthrough, same round | ≤ 1.25x | 1.36x (1.20–1.67) | **not met** | 700 µs/call (650–720) | 70.0 µs/call (65.0–80.0) |');
    expect(table).toContain('| 35 | reference broker CPU per warm call | passthrough, same round | ≤ 2x | 10.0x (9.00–10.0) | **not met** |');
    expect(table).toContain('| 35 | reference spawn to listed | passthrough, same round | ≤ 1.15x | not measured | **not met** | not measured | not measured |');
    expect(table).toContain('| 11 | reference resident growth on the large answer (MiB) | the value | < 16 | not measured | **not met** | – | – |');
  });

  it('writes the load, the targets, the tables with CPU beside the wall clock, how CPU was read, and the notes', () => {
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('2 cores');
    expect(markdown).toContain('## Targets');
    expect(markdown).toContain('| candidate | p50 (ms) · / direct | p99 (ms) · / direct | throughput (calls/s) · / direct | broker CPU (µs/call) · / passthrough | server CPU (µs/call) · / direct |');
    expect(markdown).toContain('| reference | 0.360 (0.300–0.500) · 1.50x (1.20–2.00) | – | – | 700 (650–720) · 10.0x (9.00–10.0) | 100 (90.0–110) · 1.00x (0.900–1.10) |');
    expect(markdown).toContain('| direct | 0.250 (0.200–0.300) | – | – | – | 100 (100–100) |');
    expect(markdown).toContain('in clock ticks (100 a second)');
    expect(markdown).toContain('which follow 2000 warm-up calls that are not measured');
    expect(markdown).toContain('- reference: answer: refused with result_too_large');
  });

  it('says why a run has no CPU, in the report and the README block', () => {
    const without = { ...report, cpu: { absent: 'there is no /proc to read processes from on this machine' } };
    expect(renderMarkdown(without)).toContain('CPU: not measured in this run: there is no /proc to read processes from on this machine.');
    expect(readmeBlock(without)).toContain('CPU not measured: there is no /proc');
    expect(readmeBlock(report)).toContain('on warm calls after 2000 unmeasured ones');
    expect(readmeBlock(report)).toContain(targetsTable(report.targets));
  });

  it('replaces only the README section between its markers, and refuses a README without them', () => {
    const readme = `intro\n${README_START}\nold\n${README_END}\nrest\n`;
    expect(replaceSection(readme, 'new')).toBe(`intro\n${README_START}\nnew\n${README_END}\nrest\n`);
    expect(() => replaceSection('no markers', 'new')).toThrow(/no/);
  });
});
