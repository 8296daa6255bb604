import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../harness/report/html.js';
import { renderJunit } from '../../harness/report/junit.js';
import { renderMarkdown } from '../../harness/report/markdown.js';
import type { Report } from '../../harness/report/summary.js';
import { loadRequirements } from '../../harness/requirements.js';
import { scoreOf } from '../../harness/transparency/score.js';
import type { TransparencyReport, TransparencyResult } from '../../harness/transparency/types.js';
import { judgedCase, reportOf } from '../harness/case-fixture.js';

const result = (id: string, verdict: TransparencyResult['verdict'], extra: Partial<TransparencyResult> = {}): TransparencyResult => ({
  suite: 'official-servers',
  id,
  title: id,
  verdict,
  detail: `${verdict} detail of ${id}`,
  ...extra,
});

const results = [
  result('everything/stdio/ping', 'preserved'),
  result('everything/stdio/ping#2', 'preserved'),
  result('everything/stdio/tools/call:get-tiny-image', 'changed', { requirement: 'WTH-1' }),
  result('everything/http/tools/call:get-roots-list', 'broken'),
  result('memory/stdio/prompts/list', 'not-applicable'),
];

function reportWith(transparency: TransparencyReport | undefined): Report {
  return reportOf([judgedCase('a', 'pass')], transparency === undefined ? {} : { transparency });
}

const transparency: TransparencyReport = {
  score: scoreOf(results),
  suites: [{ name: 'official-servers', title: 'the official servers', score: scoreOf(results), duration_ms: 61_000, sessions: [{ id: 'everything/stdio', duration_ms: 9_000 }] }],
  results,
  duration_ms: 61_000,
};

describe('transparency in every report', () => {
  it('report.md gives the score, each suite and every operation not preserved', () => {
    const markdown = renderMarkdown(reportWith(transparency), loadRequirements());
    expect(markdown).toContain('**Transparency: preserved 2 of 4 (50.0%), 1 changed, 1 broken**');
    expect(markdown).toContain('| official-servers | preserved 2 of 4 (50.0%), 1 changed, 1 broken | 1 | 0 | 61.0 s |');
    expect(markdown).toContain('| official-servers: everything/stdio/tools/call:get-tiny-image | changed | WTH-1 |');
    expect(markdown).toContain('| official-servers: everything/http/tools/call:get-roots-list | broken |  |');
    expect(markdown).not.toContain('everything/stdio/ping |');
    expect(renderMarkdown(reportWith(undefined), loadRequirements())).toContain('**Transparency: not measured**');
  });

  it('junit.xml has a transparency testsuite: broken fails, changed passes, not-applicable is skipped', () => {
    const xml = renderJunit(reportWith(transparency));
    expect(xml).toContain('<testsuite name="transparency" tests="5" failures="1" errors="0" skipped="1">');
    expect(xml).toMatch(/name="everything\/http\/tools\/call:get-roots-list">\s*<failure type="broken"/);
    expect(xml).toMatch(/name="everything\/stdio\/tools\/call:get-tiny-image">\s*<system-out>changed under WTH-1/);
    expect(renderJunit(reportWith(undefined))).not.toContain('transparency');
  });

  it('report.html shows it in the headline and in a tile per suite', () => {
    const html = renderHtml(reportWith(transparency));
    expect(html).toContain('<strong id="transparency">Transparency: preserved 2 of 4 (50.0%), 1 changed, 1 broken</strong>');
    expect(html).toMatch(/<section id="transparency-summary">[\s\S]*<div class="tile over-blocked"[^>]*><strong>official-servers<\/strong>/);
    expect(html).toContain('2 operation(s) not preserved');
    expect(renderHtml(reportWith(undefined))).toContain('Transparency: not measured');
  });
});
