// The report scores each MCP revision beside the totals: attacks held of run and controls passed
// of each revision's cases (a case of a report written before revisions spoke 2025-11-25), in
// report.json's summary, report.md and report.html; a legacy scenario says so beside its id.

import { describe, expect, it } from 'vitest';
import { verdictSection } from '../../harness/report/page-summary.js';
import { renderMarkdown } from '../../harness/report/markdown.js';
import { summarise } from '../../harness/report/summary.js';
import { loadRequirements } from '../../harness/requirements.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { judgedCase, reportOf } from './case-fixture.js';

const of = (revision: '2026-07-28' | undefined, c: CaseResult): CaseResult => (revision === undefined ? c : { ...c, revision });

const cases: CaseResult[] = [
  // Written before revisions: 2025-11-25.
  { ...judgedCase('a', 'pass', { control: 'c' }), control_outcome: 'pass' },
  judgedCase('c', 'pass', { kind: 'control' }),
  of('2026-07-28', { ...judgedCase('a.2026-07-28', 'fail', { control: 'c.2026-07-28' }), control_outcome: 'pass', legacy: true }),
  of('2026-07-28', judgedCase('c.2026-07-28', 'pass', { kind: 'control' })),
  of('2026-07-28', judgedCase('u.2026-07-28', 'unsupported', { kind: 'control' })),
];

describe('the score of each revision', () => {
  it('counts attacks held and controls passed of each revision the cases spoke, judged cases only', () => {
    const summary = summarise(cases);
    expect(summary.by_revision).toEqual({
      '2025-11-25': { attacks_held: 1, attacks_total: 1, controls_passed: 1, controls_total: 1 },
      '2026-07-28': { attacks_held: 0, attacks_total: 1, controls_passed: 1, controls_total: 1 },
    });
    expect([summary.attacks_held, summary.attacks_total]).toEqual([1, 2]);
    expect(summarise(cases.slice(0, 2)).by_revision).toEqual({ '2025-11-25': { attacks_held: 1, attacks_total: 1, controls_passed: 1, controls_total: 1 } });
  });

  it('shows them in report.md and report.html, and a legacy case as legacy', () => {
    const report = reportOf(cases);
    const markdown = renderMarkdown(report, loadRequirements());
    expect(markdown).toContain('| 2025-11-25 | 1 of 1 | 1 of 1 |');
    expect(markdown).toContain('| 2026-07-28 | 0 of 1 | 1 of 1 |');
    expect(markdown).toContain('| a.2026-07-28 (legacy) | attack |');
    expect(verdictSection(report)).toContain('MCP 2025-11-25: attacks held 1 of 1, controls passed 1 of 1 · MCP 2026-07-28: attacks held 0 of 1, controls passed 1 of 1');
  });

  it('shows nothing of revisions for a report written before them', () => {
    const report = reportOf(cases.slice(0, 2));
    delete report.summary.by_revision;
    expect(renderMarkdown(report, loadRequirements())).not.toContain('MCP revision');
    expect(verdictSection(report)).not.toContain('id="revisions"');
  });
});
