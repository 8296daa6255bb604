/**
 * The benchmark's arithmetic and its judgement, on made-up rounds: medians and percentiles, the
 * per-round ratio to direct, a target met or not from the median, and the report and README
 * section written from them. Nothing here runs a broker.
 */
import { describe, expect, it } from 'vitest';
import { README_END, README_START, replaceSection } from '../../bench/readme.js';
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
  function results(reference: Array<number | null>, direct: Array<number | null>): Results {
    const made = new Results(['direct', 'reference'], reference.length);
    reference.forEach((value, round) => made.record('sequential.p50_ms', 'reference', round, value));
    direct.forEach((value, round) => made.record('sequential.p50_ms', 'direct', round, value));
    return made;
  }
  const p50: Target = TARGETS.find((target) => target.id === 'call-p50')!;

  it('gives the median of the per-round ratios, not the ratio of the medians', () => {
    // Medians 2 and 2 (ratio 1); per round 4, 1, 0.5: median 1 as well, but from other rounds.
    const summary = summarise(results([4, 2, 1], [1, 2, 2]));
    expect(summary['sequential.p50_ms'].reference!.ratio).toEqual({ median: 1, min: 0.5, max: 4, n: 3 });
    // direct has no ratio to itself.
    expect(summary['sequential.p50_ms'].direct!.ratio).toBeUndefined();
  });

  it('meets a target from the median and misses it past the threshold', () => {
    expect(judge([p50], summarise(results([1.4, 1.5, 9], [1, 1, 1])))[0]).toMatchObject({ met: true, measured: { median: 1.5 } });
    expect(judge([p50], summarise(results([1.6, 1.6, 1], [1, 1, 1])))[0]).toMatchObject({ met: false, measured: { median: 1.6 } });
  });

  it('never meets a target nothing measured', () => {
    const [judged] = judge([p50], summarise(results([null, null], [1, 1])));
    expect(judged).toEqual({ target: p50, met: false });
  });

  it("reads the yardstick's same measure beside the target, and judges the target alone", () => {
    const withYardstick = madeUpRun({ direct: [1, 1], reference: [3, 3], passthrough: [1.25, 1.5] }).summary;
    expect(judge([p50], withYardstick)[0]).toMatchObject({ met: false, measured: { median: 3 }, yardstick: { median: 1.375, min: 1.25, max: 1.5 } });
    // Without passthrough in the run there is nothing to show beside it.
    expect(judge([p50], summarise(results([3, 3], [1, 1])))[0]).not.toHaveProperty('yardstick');
  });

  it('judges a value target on the value, and a higher-is-better ratio from below', () => {
    const made = new Results(['direct', 'reference'], 2);
    made.record('large.growth_mib', 'reference', 0, 15.9);
    made.record('large.growth_mib', 'reference', 1, 16.1);
    made.record('sequential.throughput', 'reference', 0, 70);
    made.record('sequential.throughput', 'direct', 0, 100);
    const judged = judge(TARGETS, summarise(made));
    // Median 16.0 is not < 16.
    expect(judged.find(({ target }) => target.id === 'large-growth')).toMatchObject({ met: false, measured: { median: 16 } });
    expect(judged.find(({ target }) => target.id === 'call-throughput')).toMatchObject({ met: true, measured: { median: 0.7 } });
  });
});

describe('the report', () => {
  const report = madeUpRun(
    { direct: [0.2, 0.25, 0.3], reference: [0.3, 0.5, 0.36], passthrough: [0.22, 0.3, 0.3] },
    { reference: { large: ['answer: refused with result_too_large'] } },
  );
  const { summary } = report;

  it('shows each cell as median (range) and the ratio to direct', () => {
    expect(cellText(summary['sequential.p50_ms'].reference)).toBe('0.360 (0.300–0.500) · 1.50x (1.20–2.00)');
    expect(cellText(summary['sequential.p50_ms'].direct)).toBe('0.250 (0.200–0.300)');
    expect(cellText(summary['large.growth_mib'].reference)).toBe('–');
  });

  it('lists every target with its measurement and verdict', () => {
    const table = targetsTable(report.targets);
    expect(table.split('\n')).toHaveLength(2 + TARGETS.length);
    // The yardstick's own ratio beside each: 1.1, 1.2 and 1.0 in the three rounds.
    expect(table).toContain('| reference tools/call p50 / direct | ≤ 1.5x | 1.50x (1.20–2.00) | met | 1.10x (1.00–1.20) |');
    expect(table).toContain('| reference resident growth on the large answer (MiB) | < 16 | not measured | **not met** | – |');
  });

  it('writes the load, the targets, the tables and the notes', () => {
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('2 cores');
    expect(markdown).toContain('## Targets (issue 11)');
    expect(markdown).toContain('| reference | 0.360 (0.300–0.500) · 1.50x (1.20–2.00) |');
    expect(markdown).toContain('- reference: answer: refused with result_too_large');
  });

  it('replaces only the README section between its markers, and refuses a README without them', () => {
    const readme = `intro\n${README_START}\nold\n${README_END}\nrest\n`;
    expect(replaceSection(readme, 'new')).toBe(`intro\n${README_START}\nnew\n${README_END}\nrest\n`);
    expect(() => replaceSection('no markers', 'new')).toThrow(/no/);
  });
});
