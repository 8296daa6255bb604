import { isExpectedFailure } from '../run/baseline.js';
import type { CaseResult } from '../run/outcome.js';
import type { Report } from './summary.js';

function escapeXml(text: string): string {
  // XML 1.0 cannot carry most C0 controls even escaped; hostile text may contain them.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * The transparency results as a testsuite of their own: broken fails, changed passes (a named
 * requirement explains it, said in its output), not-applicable and unsupported are skipped. They
 * do not count in the run's exit code, which is the attacks' and controls'.
 */
function transparencySuite(report: Report): string[] {
  const results = report.transparency?.results;
  if (results === undefined) return [];
  const broken = results.filter((result) => result.verdict === 'broken').length;
  const skipped = results.filter((result) => result.verdict === 'not-applicable' || result.verdict === 'unsupported').length;
  const lines = [`  <testsuite name="transparency" tests="${results.length}" failures="${broken}" errors="0" skipped="${skipped}">`];
  for (const result of results) {
    const open = `    <testcase classname="${escapeXml(`transparency.${result.suite}`)}" name="${escapeXml(result.id)}"`;
    if (result.verdict === 'preserved') lines.push(`${open}/>`);
    else if (result.verdict === 'broken') lines.push(`${open}>`, `      <failure type="broken" message="${escapeXml(result.detail.slice(0, 500))}"/>`, '    </testcase>');
    else if (result.verdict === 'changed') lines.push(`${open}>`, `      <system-out>${escapeXml(`changed under ${result.requirement}: ${result.detail}`)}</system-out>`, '    </testcase>');
    else lines.push(`${open}>`, `      <skipped message="${escapeXml(`${result.verdict}: ${result.detail}`)}"/>`, '    </testcase>');
  }
  lines.push('  </testsuite>');
  return lines;
}

/**
 * JUnit XML for CI systems that only read that: one testcase per scenario. With a baseline, a
 * failure it lists in full is `skipped` with the baseline's reasons (it does not fail the run),
 * and each stale entry is a failing testcase of its own (it does).
 */
export function renderJunit(report: Report): string {
  const verdict = report.baseline;
  const expected = (c: CaseResult) => verdict !== undefined && isExpectedFailure(c, verdict);
  const count = (outcome: CaseResult['outcome']) => report.cases.filter((c) => c.outcome === outcome && !expected(c)).length;
  const stale = verdict?.stale ?? [];
  const tests = report.cases.length + stale.length;
  const failures = count('fail') + stale.length;
  const skipped = count('unsupported') + count('unsupported-environment') + report.cases.filter(expected).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-gauntlet" tests="${tests}" failures="${failures}" errors="${count('error')}" skipped="${skipped}">`,
    `  <testsuite name="${escapeXml(report.candidate.name)}" tests="${tests}" failures="${failures}" errors="${count('error')}" skipped="${skipped}">`,
  ];
  for (const c of report.cases) {
    const open = `    <testcase classname="${escapeXml(c.kind)}" name="${escapeXml(c.id)}" file="${escapeXml(c.file)}" time="${(c.duration_ms / 1000).toFixed(3)}"`;
    if (c.outcome === 'pass' && c.by_adapter !== undefined) {
      // Passed, but by what the adapter does itself: a CI reader must not credit the broker.
      lines.push(`${open}>`, `      <system-out>${escapeXml(`held by the adapter, not the broker: ${c.by_adapter.join(', ')}`)}</system-out>`, '    </testcase>');
      continue;
    }
    if (c.outcome === 'pass') {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (expected(c)) {
      const reasons = [...new Set(verdict!.expected.filter((entry) => entry.scenario === c.id).map((entry) => entry.reason))].join('; ');
      lines.push(`      <skipped message="${escapeXml(`expected ${c.outcome} (baseline): ${reasons}`)}"/>`);
    } else if (c.outcome === 'fail') {
      const detail = c.findings.map((f) => `${f.step} ${f.check} (${f.class}) ${f.expectation}: expected ${JSON.stringify(f.expected)}, observed ${JSON.stringify(f.observed)}`).join('\n');
      lines.push(`      <failure type="${c.failure}" message="${escapeXml(`${c.failure}: ${c.findings.length} check(s) not met`)}">${escapeXml(detail)}</failure>`);
    } else if (c.outcome === 'error') {
      lines.push(`      <error message="${escapeXml(c.reason ?? 'error')}"/>`);
    } else {
      lines.push(`      <skipped message="${escapeXml(`${c.outcome}: ${c.reason ?? ''}`)}"/>`);
    }
    lines.push('    </testcase>');
  }
  for (const entry of stale) {
    lines.push(`    <testcase classname="baseline" name="${escapeXml(`${entry.scenario} ${entry.check}`)}" file="${escapeXml(verdict!.file)}" time="0">`);
    lines.push(`      <failure type="stale-baseline-entry" message="${escapeXml(`stale baseline entry (${entry.why})`)}">${escapeXml(entry.reason)}</failure>`, '    </testcase>');
  }
  lines.push('  </testsuite>', ...transparencySuite(report), '</testsuites>', '');
  return lines.join('\n');
}
