import { describe, expect, it } from 'vitest';
import { MergeError, mergeShards, type ShardReport } from '../../harness/report/merge.js';
import { REPORT_FORMAT, summarise, type Report } from '../../harness/report/summary.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { judgedCase } from './case-fixture.js';

function shard(dir: string, index: number, count: number, cases: CaseResult[], extra: Partial<Report> = {}): ShardReport {
  return {
    dir,
    report: {
      format: REPORT_FORMAT,
      suite: { name: 'mcp-gauntlet', version: '1.0.0' },
      candidate: { name: 'broker', version: '2', claims: [] } as unknown as Report['candidate'],
      started_at: `2026-01-01T00:00:0${index}Z`,
      finished_at: `2026-01-01T00:01:0${index}Z`,
      filter: 'x.*',
      shard: { index, count },
      summary: summarise(cases),
      cases,
      ...extra,
    },
  };
}

const order = ['x.attack', 'x.control', 'y.attack', 'y.control'];
const one = () => [judgedCase('y.attack', 'pass', { control: 'y.control' }), judgedCase('y.control', 'pass', { kind: 'control' })];
const two = () => [judgedCase('x.attack', 'fail', { control: 'x.control', checks: ['call.answer_excludes'] }), judgedCase('x.control', 'pass', { kind: 'control' })];

describe('merging shard reports', () => {
  it('puts cases back in catalogue order and recomputes control outcomes and the summary', () => {
    const merged = mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 2, two())], order);
    expect(merged.cases.map((c) => c.id)).toEqual(order);
    expect(merged.cases.map((c) => c.control_outcome)).toEqual(['pass', undefined, 'pass', undefined]);
    expect(merged.summary).toMatchObject({ total: 4, passed: 3, failed: 1, attacks_held: 1, attacks_total: 2 });
    expect(merged.shard).toBeUndefined();
    expect([merged.started_at, merged.finished_at]).toEqual(['2026-01-01T00:00:01Z', '2026-01-01T00:01:02Z']);
  });

  it("carries the transparency score of the one shard that measured it, and refuses two", () => {
    const transparency = { score: { preserved: 1 } } as unknown as Report['transparency'];
    expect(mergeShards([shard('s2', 2, 2, two()), shard('s1', 1, 2, one(), { transparency })], order).transparency).toEqual(transparency);
    expect(mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 2, two())], order).transparency).toBeUndefined();
    expect(() => mergeShards([shard('s1', 1, 2, one(), { transparency }), shard('s2', 2, 2, two(), { transparency })], order)).toThrow(/s2: transparency measured again \(also in s1\)/);
  });

  it('refuses shards of different runs, naming the folder and what differs', () => {
    const suite = { suite: { name: 'mcp-gauntlet', version: '9.9.9' } };
    expect(() => mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 2, two(), suite)], order)).toThrow(/s2: a different suite/);
    const candidate = { candidate: { name: 'other', version: '2', claims: [] } as unknown as Report['candidate'] };
    expect(() => mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 2, two(), candidate)], order)).toThrow(/s2: a different candidate/);
    expect(() => mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 2, two(), { filter: 'y.*' })], order)).toThrow(/s2: a different selection/);
    expect(() => mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 3, two())], order)).toThrow(/s2: shard 2\/3/);
  });

  it('refuses overlapping and missing shards', () => {
    expect(() => mergeShards([shard('s1', 1, 2, one()), shard('again', 1, 2, two())], order)).toThrow(/again: shard 1\/2 overlaps s1/);
    expect(() => mergeShards([shard('s1', 1, 3, one()), shard('s3', 3, 3, two())], order)).toThrow(/shard 2\/3 missing/);
    expect(() => mergeShards([shard('s1', 1, 2, one()), shard('s2', 2, 2, one())], order)).toThrow(/s2: scenario y.attack is also in s1/);
    expect(() => mergeShards([], order)).toThrow(MergeError);
  });
});
