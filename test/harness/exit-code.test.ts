import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { assess } from '../../harness/report/assess.js';
import { REPORT_FORMAT, summarise, type Report } from '../../harness/report/summary.js';
import { parseBaseline } from '../../harness/run/baseline.js';
import { baselineProblems, exitCodeOf } from '../../harness/run/exit-code.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { judgedCase } from './case-fixture.js';

function reportOf(cases: CaseResult[], extra: Partial<Report> = {}): Report {
  return { format: REPORT_FORMAT, suite: { name: 'mcp-gauntlet', version: '0' }, candidate: { name: 'c', version: '0', claims: [] } as unknown as Report['candidate'], started_at: '', finished_at: '', filter: null, summary: summarise(cases), cases, ...extra };
}

const catalogue = loadCatalogue('wth.*');
const control = judgedCase('wth.text-passes', 'pass', { kind: 'control' });
const leak = judgedCase('wth.image-withheld', 'fail', { control: 'wth.text-passes', checks: ['call.content_types_absent'] });
const baseline = (entries: object[]) => parseBaseline(JSON.stringify({ format: 'mcp-gauntlet-baseline/1', entries }), 'b.json');

describe('exit codes', () => {
  it('is 0 when all pass, 1 on a failure, 2 when nothing was judged', () => {
    expect(exitCodeOf(reportOf([control]))).toBe(0);
    expect(exitCodeOf(reportOf([control, leak]))).toBe(1);
    expect(exitCodeOf(reportOf([judgedCase('x', 'unsupported'), judgedCase('y', 'error')]))).toBe(2);
    expect(exitCodeOf(reportOf([]))).toBe(2);
    expect(exitCodeOf(reportOf([], { shard: { index: 2, count: 2 } }))).toBe(0);
  });

  it('is 0 with only failures the baseline lists, 1 with a stale entry, and names it', () => {
    const options = { profiles: [], catalogue };
    const expected = assess(reportOf([control, leak]), { ...options, baseline: baseline([{ scenario: 'wth.image-withheld', check: 'call.content_types_absent', reason: 'known' }]) });
    expect(expected.summary).toMatchObject({ expected_failures: 1, unexpected_failures: 0, stale_entries: 0 });
    expect(exitCodeOf(expected)).toBe(0);
    const stale = assess(reportOf([control, leak]), {
      ...options,
      baseline: baseline([
        { scenario: 'wth.image-withheld', check: 'call.content_types_absent', reason: 'known' },
        { scenario: 'wth.text-passes', check: '*', reason: 'was broken' },
      ]),
    });
    expect(exitCodeOf(stale)).toBe(1);
    expect(baselineProblems(stale)).toEqual(['stale baseline entry (no-longer-fails): wth.text-passes *']);
    const unexpected = assess(reportOf([control, leak]), { ...options, baseline: baseline([]) });
    expect(exitCodeOf(unexpected)).toBe(1);
    expect(baselineProblems(unexpected)).toEqual(['unexpected failure (not in b.json): wth.image-withheld call.content_types_absent']);
  });
});
