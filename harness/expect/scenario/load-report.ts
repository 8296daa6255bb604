import type { LedgerRecord } from '../../../servers/kit/ledger.js';
import { listedTools } from '../../observe/contracts.js';
import { listingReplies, listRequests } from '../../observe/ledger.js';
import { firstUnescaped } from '../../observe/escaped.js';
import { expectation } from '../types.js';

/**
 * The names of every tool the last server process that was listed sent in its listing, over all
 * its pages: what the candidate that served last saw, observed on the server's side.
 */
function toolsListedLast(records: readonly LedgerRecord[]): string[] {
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

const SECTIONS = ['registered', 'refused', 'unpinned', 'unclassified', 'hint_mismatch_overridden'] as const;

/**
 * The candidate's load report (which tools registered, which were refused and why), read through
 * its `loadReport` hook: the broker's own record, checked for completeness against the listing
 * the ledger shows the server sent.
 */
export default expectation({
  block: 'scenario',
  name: 'load_report',
  hook: 'load-report',
  doc: 'the load report, read through the adapter\'s `loadReport` hook: tools in each section (`registered`, `refused`, `unpinned`, `unclassified`, `hint_mismatch_overridden`), `registered_as` (offered name and class), `complete` (every tool the server listed is accounted for, each refusal with a reason), `escaped` (no raw control, bidi or zero-width character)',
  properties: {
    load_report: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        ...Object.fromEntries(SECTIONS.map((section) => [section, { $ref: '#/$defs/names' }])),
        registered_as: {
          type: 'object',
          minProperties: 1,
          additionalProperties: { type: 'object', additionalProperties: false, required: ['name', 'effect'], properties: { name: { type: 'string', minLength: 1 }, effect: { $ref: '#/$defs/effect' } } },
        },
        complete: { const: true },
        escaped: { const: true },
      },
    },
  },
  checks: {
    'load_report.written': { class: 'record', doc: 'the candidate wrote a load report' },
    'load_report.sections': { class: 'record', doc: 'each tool is in the section that says what happened to it' },
    'load_report.complete': { class: 'record', doc: 'every tool the server listed is accounted for, each refusal with a reason' },
    'load_report.listed': { class: 'benign', doc: 'the ledger shows a listing to account for' },
    'load_report.escaped': { class: 'record', doc: 'no string of the report can forge a line or hide text' },
  },
  async observe(_expect, facts, live) {
    facts.loadReport = (await live.candidate.loadReport?.(live.spec)) ?? null;
  },
  judge({ load_report: expect }, { loadReport: report }, { records }, fail) {
    if (!expect) return;
    if (!report) {
      fail('load_report.written', 'load report', 'a load report', 'none written');
      return;
    }
    const sections: Record<(typeof SECTIONS)[number], string[]> = {
      registered: report.registered.map((entry) => entry.tool),
      refused: report.refused.map((entry) => entry.tool),
      unpinned: report.unpinned,
      unclassified: report.unclassified,
      hint_mismatch_overridden: report.hint_mismatch_overridden,
    };
    for (const section of SECTIONS) {
      for (const name of expect[section] ?? []) if (!sections[section].includes(name)) fail('load_report.sections', `load report ${section}`, name, sections[section]);
    }
    for (const [tool, wanted] of Object.entries(expect.registered_as ?? {})) {
      const entry = report.registered.find((registered) => registered.tool === tool);
      if (entry?.name !== wanted.name || entry.effect !== wanted.effect) fail('load_report.sections', `load report registers ${tool}`, wanted, entry ?? '(not registered)');
    }
    if (expect.complete) {
      // Names are compared as written: a scenario that expects completeness lists names that need no escaping.
      const listed = toolsListedLast(records);
      const accounted = new Set([...sections.registered, ...sections.refused, ...sections.unpinned, ...sections.unclassified]);
      const missing = listed.filter((name) => !accounted.has(name));
      if (listed.length === 0) fail('load_report.listed', 'load report accounts for every listed tool', 'a listing in the ledger', 'none');
      if (missing.length > 0) fail('load_report.complete', 'load report accounts for every listed tool', 'each registered, refused, unpinned or unclassified', `missing ${missing.join(', ')}`);
      for (const { tool, reason } of report.refused) if (reason.trim() === '') fail('load_report.complete', `load report gives a reason for refusing ${tool}`, 'a reason', '(empty)');
    }
    const raw = expect.escaped ? firstUnescaped(report) : undefined;
    if (raw !== undefined) fail('load_report.escaped', 'load report escaped', 'no raw control, bidi or zero-width characters', JSON.stringify(raw));
  },
});
