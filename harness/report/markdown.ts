import type { Report } from './summary.js';

/** Table cells hold hostile text: keep it on one line and unable to break the table. */
function cell(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\|/g, '\\|').slice(0, 300);
}

/** A Markdown summary for people and pull requests, derived from the JSON report. */
export function renderMarkdown(report: Report): string {
  const { summary } = report;
  const lines = [
    `# mcp-gauntlet conformance report: ${report.candidate.name}`,
    '',
    `Candidate ${report.candidate.name} ${report.candidate.version}, claims: ${report.candidate.claims.join(', ') || 'none'}.`,
    `Suite ${report.suite.name} ${report.suite.version}; run ${report.started_at}${report.filter ? `; filter \`${report.filter}\`` : ''}.`,
    '',
    `**${summary.passed} passed, ${summary.failed} failed, ${summary.errors} errors, ${summary.unsupported} unsupported, ${summary.unsupported_environment} unsupported-environment, of ${summary.total}.**`,
    '',
    '| scenario | kind | requirements | outcome |',
    '|---|---|---|---|',
    ...report.cases.map((c) => `| ${cell(c.id)} | ${c.kind} | ${c.requirements.join(' ')} | ${c.outcome} |`),
    '',
  ];
  const notPassed = report.cases.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
  if (notPassed.length > 0) {
    lines.push('## What was expected, and what was observed', '');
    for (const c of notPassed) {
      lines.push(`### ${c.id} (${c.outcome})`, '', c.title, '');
      if (c.reason) lines.push(`Reason: ${cell(c.reason)}`, '');
      if (c.findings.length > 0) {
        lines.push('| step | expectation | expected | observed |', '|---|---|---|---|');
        for (const f of c.findings) lines.push(`| ${cell(f.step)} | ${cell(f.expectation)} | ${cell(f.expected)} | ${cell(f.observed)} |`);
        lines.push('');
      }
    }
  }
  return lines.join('\n');
}
