// The headline a CI job shows first (harness/report/headline.ts): its numbers read from the
// report's summary, the controls counted apart, and the adapter's own text kept plain.

import { describe, expect, it } from 'vitest';
import { headlineMarkdown, headlineOf, noReportMarkdown } from '../../harness/report/headline.js';
import { REPORT_FORMAT, summarise, type Report } from '../../harness/report/summary.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { ADAPTER_PROTOCOL } from '../../harness/candidates/types.js';
import { judgedCase } from './case-fixture.js';

function reportOf(cases: CaseResult[], name = 'my-broker'): Report {
  return {
    format: REPORT_FORMAT,
    suite: { name: 'mcp-gauntlet', version: '0.1.0' },
    candidate: { name, version: '1.2.3', adapterProtocol: ADAPTER_PROTOCOL, claims: [] },
    started_at: '2026-12-06T00:00:00.000Z',
    finished_at: '2026-12-06T00:00:01.000Z',
    filter: null,
    summary: summarise(cases),
    cases,
  };
}

const attack = (id: string, outcome: CaseResult['outcome'], control: CaseResult['outcome']): CaseResult => ({ ...judgedCase(id, outcome, { control: 'c.ok', ...(outcome === 'fail' ? { checks: ['call.server_received'] } : {}) }), control_outcome: control });

describe('the headline', () => {
  const cases: CaseResult[] = [
    attack('a.held', 'pass', 'pass'),
    attack('a.through', 'fail', 'pass'),
    attack('a.crashed', 'error', 'pass'),
    judgedCase('c.ok', 'pass', { kind: 'control' }),
    { ...judgedCase('c.broken', 'fail', { kind: 'control' }), failure: 'over-blocked' as const },
    judgedCase('c.skipped', 'unsupported', { kind: 'control' }),
  ];

  it('counts attacks held of run from the summary, and controls passed of those judged', () => {
    expect(headlineOf(reportOf(cases))).toEqual({
      attacks_held: 1,
      attacks_held_by_adapter: 0,
      attacks_run: 3,
      controls_passed: 1,
      controls_run: 2,
      exposed: 1,
      over_blocked: 1,
      nonconformant: 0,
      errors: 1,
      unsupported: 1,
    });
  });

  it('opens on what the exit code means, then attacks held, controls passed and failures by kind', () => {
    const text = headlineMarkdown(reportOf(cases), { exitCode: 1, artifact: { name: 'gauntlet-report', url: 'https://example.test/artifacts/7' } });
    expect(text.split('\n').slice(0, 3)).toEqual(['### mcp-gauntlet: my\\-broker 1\\.2\\.3, exit 1', '', '**failed: a failure or error the baseline does not list, or a stale baseline entry.**']);
    expect(text).toContain('**Attacks held: 1 of 3**');
    expect(text).toContain('controls passed: 1 of 2');
    expect(text).toContain('| 1 (0 / 1) | 1 | 0 | 1 | 1 | 6 |');
    expect(text).toContain('artifact [`gauntlet-report`](https://example.test/artifacts/7)');
    // None of these cases is a scenario a taxonomy maps: every class a broker can be judged on is not run, or missing.
    expect(text).toMatch(/^Public taxonomies \(docs\/taxonomies\.md\): held 0 of 12 CoSAI .*; held 0 of 10 OWASP MCP Top 10 classes \(10 not run\)\.$/m);
  });

  it('shows the adapter\'s name as plain text on one line, whatever it holds', () => {
    const text = headlineMarkdown(reportOf(cases, 'evil <img src=x onerror=alert(1)>\n# [pass](javascript:x) **held**'), { exitCode: 1 });
    const heading = text.split('\n')[0] as string;
    expect(heading).toContain('evil \\<img src=x onerror=alert\\(1\\)\\> \\# \\[pass\\]\\(javascript:x\\) \\*\\*held\\*\\*');
    // Every mark that could open markup is escaped: none stands without its backslash.
    expect(heading.slice('### '.length)).not.toMatch(/[^\\][<[(*#]/);
    expect(text.split('\n')[1]).toBe('');
  });

  it('says when the run wrote no report, and what its exit code means', () => {
    expect(noReportMarkdown({ exitCode: 2 })).toContain('### mcp-gauntlet: no report, exit 2');
    expect(noReportMarkdown({ exitCode: 2 })).toContain('nothing could be judged');
    expect(noReportMarkdown({ exitCode: 7 })).toContain('an exit code mcp-gauntlet does not give (7)');
  });
});
