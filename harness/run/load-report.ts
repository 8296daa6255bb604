import type { LedgerRecord } from '../../servers/kit/ledger.js';
import type { NeutralLoadReport } from '../candidates/types.js';
import { listedTools } from '../observe/contracts.js';
import { listingReplies, listRequests } from '../observe/ledger.js';
import { firstUnescaped } from '../observe/escaped.js';
import type { LoadReportExpectation } from '../scenario/types.js';
import type { Finding } from './outcome.js';

const finding = (expectation: string, expected: unknown, observed: unknown): Finding => ({ step: 'end', expectation, expected, observed });

/**
 * The names of every tool the last server process that was listed sent in its listing, over all
 * its pages: what the candidate that served last saw, observed on the server's side.
 */
export function toolsListedLast(records: readonly LedgerRecord[]): string[] {
  const pid = listRequests(records)
    .filter((request) => request.id !== null)
    .at(-1)?.pid;
  const names = new Set<string>();
  for (const { request, reply } of listingReplies(records)) {
    if (request.pid !== pid) continue;
    for (const tool of listedTools(reply.raw)) if (typeof tool.name === 'string') names.add(tool.name);
  }
  return [...names];
}

/** The load report against the scenario's expectations and, for `complete`, the server's listing. */
export function reportFindings(report: NeutralLoadReport, expect: LoadReportExpectation, listed: readonly string[]): Finding[] {
  const sections: Record<'registered' | 'refused' | 'unpinned' | 'unclassified' | 'hint_mismatch_overridden', string[]> = {
    registered: report.registered.map((entry) => entry.tool),
    refused: report.refused.map((entry) => entry.tool),
    unpinned: report.unpinned,
    unclassified: report.unclassified,
    hint_mismatch_overridden: report.hint_mismatch_overridden,
  };
  const findings: Finding[] = [];
  for (const section of Object.keys(sections) as Array<keyof typeof sections>) {
    for (const name of expect[section] ?? []) {
      if (!sections[section].includes(name)) findings.push(finding(`load report ${section}`, name, sections[section]));
    }
  }
  for (const [tool, wanted] of Object.entries(expect.registered_as ?? {})) {
    const entry = report.registered.find((registered) => registered.tool === tool);
    if (entry?.name !== wanted.name || entry.effect !== wanted.effect) findings.push(finding(`load report registers ${tool}`, wanted, entry ?? '(not registered)'));
  }
  if (expect.complete) {
    // Names are compared as written: a scenario that expects completeness lists names that need no escaping.
    const accounted = new Set([...sections.registered, ...sections.refused, ...sections.unpinned, ...sections.unclassified]);
    const missing = listed.filter((name) => !accounted.has(name));
    if (listed.length === 0) findings.push(finding('load report accounts for every listed tool', 'a listing in the ledger', 'none'));
    if (missing.length > 0) findings.push(finding('load report accounts for every listed tool', 'each registered, refused, unpinned or unclassified', `missing ${missing.join(', ')}`));
    for (const { tool, reason } of report.refused) {
      if (reason.trim() === '') findings.push(finding(`load report gives a reason for refusing ${tool}`, 'a reason', '(empty)'));
    }
  }
  const raw = expect.escaped ? firstUnescaped(report) : undefined;
  if (raw !== undefined) findings.push(finding('load report escaped', 'no raw control, bidi or zero-width characters', JSON.stringify(raw)));
  return findings;
}
