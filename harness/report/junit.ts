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

/** JUnit XML for CI systems that only read that: one testcase per scenario. */
export function renderJunit(report: Report): string {
  const { summary } = report;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-gauntlet" tests="${summary.total}" failures="${summary.failed}" errors="${summary.errors}" skipped="${summary.unsupported + summary.unsupported_environment}">`,
    `  <testsuite name="${escapeXml(report.candidate.name)}" tests="${summary.total}" failures="${summary.failed}" errors="${summary.errors}" skipped="${summary.unsupported + summary.unsupported_environment}">`,
  ];
  for (const c of report.cases) {
    const open = `    <testcase classname="${escapeXml(c.kind)}" name="${escapeXml(c.id)}" file="${escapeXml(c.file)}" time="${(c.duration_ms / 1000).toFixed(3)}"`;
    if (c.outcome === 'pass') {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (c.outcome === 'fail') {
      const detail = c.findings.map((f) => `${f.step} ${f.check} (${f.class}) ${f.expectation}: expected ${JSON.stringify(f.expected)}, observed ${JSON.stringify(f.observed)}`).join('\n');
      lines.push(`      <failure type="${c.failure}" message="${escapeXml(`${c.failure}: ${c.findings.length} check(s) not met`)}">${escapeXml(detail)}</failure>`);
    } else if (c.outcome === 'error') {
      lines.push(`      <error message="${escapeXml(c.reason ?? 'error')}"/>`);
    } else {
      lines.push(`      <skipped message="${escapeXml(`${c.outcome}: ${c.reason ?? ''}`)}"/>`);
    }
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
