import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../servers/kit/ledger.js';
import type { NeutralLoadReport, SessionSpec } from '../../harness/candidates/types.js';
import loadReport from '../../harness/expect/scenario/load-report.js';
import type { Finding } from '../../harness/expect/types.js';
import { firstUnescaped } from '../../harness/observe/escaped.js';
import type { LoadReportExpectation } from '../../harness/scenario/types.js';

/** One listing page a server process sent, as the ledger records the request and its answer. */
const page = (pid: number, seq: number, id: string, names: string[], cursor?: string): LedgerRecord[] => [
  { ev: 'recv', pid, seq, bytes: 0, sha256: '', raw: '', raw_truncated: false, method: 'tools/list', id, tool: null, phase: 'review' },
  {
    ev: 'sent',
    pid,
    seq: seq + 1,
    bytes: 0,
    sha256: '',
    raw: JSON.stringify({ jsonrpc: '2.0', id: Number(id), result: { tools: names.map((name) => ({ name })), ...(cursor ? { nextCursor: cursor } : {}) } }),
    raw_truncated: false,
    in_reply_to: id,
    method: null,
  },
];

/** The module's findings for a report, against a ledger in which the server listed `listed`. */
function reportFindings(report: NeutralLoadReport, expect: LoadReportExpectation, listed: readonly string[] | LedgerRecord[]): Finding[] {
  const records = listed.length > 0 && typeof listed[0] !== 'string' ? (listed as LedgerRecord[]) : listed.length === 0 ? [] : page(1, 1, '1', listed as string[]);
  const findings: Finding[] = [];
  loadReport.judge({ load_report: expect }, { label: 'end', calls: [], canary: { requests: 0, records: [] }, loadReport: report }, { records, kind: 'attack', spec: {} as SessionSpec }, (check, expectation, expected, observed) =>
    findings.push({ check, class: 'record', step: 'end', expectation, expected, observed }),
  );
  return findings;
}

const report = (over: Partial<NeutralLoadReport> = {}): NeutralLoadReport => ({
  registered: [{ tool: 'read_note', name: 'fetch_note', effect: 'read_only' }],
  refused: [{ tool: 'search_notes', reason: 'hint-consistency: claims to be destructive' }],
  unpinned: ['export_all_notes'],
  unclassified: ['write_note'],
  hint_mismatch_overridden: [],
  ...over,
});
const LISTED = ['search_notes', 'read_note', 'write_note', 'export_all_notes'];
const expectations = (findings: ReturnType<typeof reportFindings>) => findings.map((f) => f.expectation);

describe('load report expectations', () => {
  it('holds registered tools to their offered name and class', () => {
    expect(reportFindings(report(), { registered_as: { read_note: { name: 'fetch_note', effect: 'read_only' } } }, LISTED)).toEqual([]);
    expect(expectations(reportFindings(report(), { registered_as: { read_note: { name: 'read_note', effect: 'read_only' } } }, LISTED))).toEqual(['load report registers read_note']);
    expect(expectations(reportFindings(report(), { registered_as: { write_note: { name: 'write_note', effect: 'local_change' } } }, LISTED))).toEqual(['load report registers write_note']);
  });

  it('complete: every listed tool is accounted for, and every refusal gives a reason', () => {
    expect(reportFindings(report(), { complete: true }, LISTED)).toEqual([]);
    expect(expectations(reportFindings(report({ unpinned: [] }), { complete: true }, LISTED))).toEqual(['load report accounts for every listed tool']);
    expect(expectations(reportFindings(report({ refused: [{ tool: 'search_notes', reason: ' ' }] }), { complete: true }, LISTED))).toEqual([
      'load report gives a reason for refusing search_notes',
    ]);
    expect(expectations(reportFindings(report(), { complete: true }, []))).toEqual(['load report accounts for every listed tool']);
  });

  it('escaped: no raw control, bidi or zero-width character anywhere, keys included', () => {
    expect(reportFindings(report({ unclassified: ['write_note\\u{202e}'] }), { escaped: true }, LISTED)).toEqual([]);
    for (const raw of ['write_note\u202e', 'a\nb', 'ver\u200bified', '\u001b[2K']) {
      expect(expectations(reportFindings(report({ unclassified: [raw] }), { escaped: true }, LISTED))).toEqual(['load report escaped']);
    }
    expect(firstUnescaped({ 'a\u2066': 'b' })).toBe('a\u2066');
    expect(firstUnescaped(['tab\tis a control too'])).toBe('tab\tis a control too');
  });

  it('reads what the last listed server process sent, over all its pages', () => {
    const records = [...page(10, 1, '2', ['old_tool']), ...page(20, 1, '2', ['a', 'b'], 'page-2'), ...page(20, 3, '3', ['c'])];
    const accounts = (names: string[]) => report({ registered: names.map((tool) => ({ tool, name: tool, effect: 'read_only' })), refused: [], unpinned: [], unclassified: [] });
    expect(reportFindings(accounts(['a', 'b', 'c']), { complete: true }, records)).toEqual([]);
    expect(reportFindings(accounts(['a', 'b']), { complete: true }, records).map((f) => f.observed)).toEqual(['missing c']);
  });
});
