// The harness's own reading of a candidate's audit trail: the checks must fail on a record that
// lies about dispatch, a missing outcome, a wrong receipt, or a contract other than the one the
// server presented for review.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../servers/kit/ledger.js';
import type { Answer } from '../../harness/agent/client.js';
import type { NeutralAuditRecord, SessionSpec } from '../../harness/candidates/types.js';
import { auditTrail } from '../../harness/expect/scenario/audit.js';
import type { CallFacts, Finding } from '../../harness/expect/types.js';
import type { ScenarioExpectation } from '../../harness/scenario/types.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const RECEIPT = { tool: 'search_notes', permission: null, trust: 'untrusted', data_classification: 'workspace' };

/** What the agent got: a result with this receipt, or a tool error with this code. */
const answerWith = (answer: { receipt?: unknown; code?: string }): Answer => {
  const result =
    answer.code === undefined
      ? { content: [], _meta: { 'io.mcp-gauntlet/receipt': answer.receipt } }
      : { isError: true, content: [], structuredContent: { code: answer.code } };
  return { kind: 'result', result, raw: JSON.stringify({ jsonrpc: '2.0', id: 1, result }) };
};

/** One call the agent made; `received` says whether the ledger shows the server got it. */
interface Call {
  received?: number;
  answer?: { receipt?: unknown; code?: string };
}

const recvOf = (pid: number, seq: number): LedgerRecord => ({
  ev: 'recv', pid, seq, bytes: 0, sha256: '', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{}}}', raw_truncated: false, method: 'tools/call', id: '1', tool: 'search_notes', phase: 'run',
});

/** The audit module's findings for these records, calls and ledger, as the judge would report them. */
function judgeAudit(expect: ScenarioExpectation, records: NeutralAuditRecord[], calls: Call[] = [], ledger: LedgerRecord[] = [], operator = { tools: {} }): Finding[] {
  const findings: Finding[] = [];
  const all: LedgerRecord[] = [...ledger];
  const facts: CallFacts[] = calls.map((call, index) => {
    const mark = all.length;
    for (let i = 0; i < (call.received ?? 1); i++) all.push(recvOf(9, 100 + index * 10 + i));
    return {
      label: `${index + 3}:call`, mark, end: all.length, next: all.length, calledAs: 'search_notes', serverTool: 'search_notes', others: [],
      step: { tool: 'search_notes', expect: { agent: 'result' } }, args: { query: 'budget', limit: 2 },
      answer: answerWith(call.answer ?? { receipt: RECEIPT }),
    };
  });
  auditTrail.judge(expect, { label: 'end', calls: facts, canary: { requests: 0, records: [] }, audit: records }, { records: all, kind: 'attack', spec: { operator } as SessionSpec }, (check, expectation, expected, observed, step = 'end') =>
    findings.push({ check, class: 'record', step, expectation, expected, observed }),
  );
  return findings;
}

const callFindings = (records: NeutralAuditRecord[], calls: Call[]) => judgeAudit({ audit_calls: 'complete' }, records, calls);
const contractFindings = (records: NeutralAuditRecord[], ledger: LedgerRecord[], operator: { source_version?: string; tools: Record<string, never> }) =>
  judgeAudit({ audit_contract: 'pinned' }, records, [], ledger, operator);
const call = (overrides: Call = {}): Call => overrides;

// Keys in another order than sent, as canonical JSON sorts them.
const operation = { name: 'search_notes', arguments_sha256: sha256('{"limit":2,"query":"budget"}') };

const answered = (overrides: Partial<NeutralAuditRecord> = {}): NeutralAuditRecord => ({
  decision: 'call_answered',
  tool: 'search_notes',
  code: null,
  operation,
  validation: 'passed',
  grant: null,
  dispatched: true,
  receipt: { tool: 'search_notes', permission: null, trust: 'untrusted', data_classification: 'workspace' },
  ...overrides,
});

describe('audit_calls: complete', () => {
  it('accepts a record that agrees with the ledger and the agent', () => {
    expect(callFindings([answered({ decision: 'allowed', dispatched: false, receipt: null }), answered()], [call()])).toEqual([]);
  });

  it('wants an outcome record of the exact operation for every call', () => {
    expect(callFindings([], [call()])).toHaveLength(1);
    const otherArguments = answered({ operation: { ...operation, arguments_sha256: sha256('{"query":"budget"}') } });
    expect(callFindings([otherArguments], [call()])[0]?.expectation).toBe('an audit record of the call and its outcome');
    // Two identical calls need two records: one record cannot account for both.
    expect(callFindings([answered()], [call(), call()])).toHaveLength(1);
    // An `allowed` record is not an outcome.
    expect(callFindings([answered({ decision: 'allowed' })], [call()])).toHaveLength(1);
  });

  it('fails a record whose dispatch disagrees with the ledger, or with its own decision', () => {
    const refusedButSent = callFindings([answered({ decision: 'call_refused', dispatched: false, receipt: null })], [call({ answer: { code: undefined, receipt: undefined } })]);
    expect(refusedButSent.map((f) => f.expectation)).toEqual(['the record says whether the server was sent the call (ledger)']);
    const rejectedUnsent = callFindings([answered({ decision: 'call_rejected', dispatched: false, code: 'x' })], [call({ received: 0, answer: { code: 'x' } })]);
    expect(rejectedUnsent.map((f) => f.expectation)).toEqual(['a refusal before dispatch is told apart from an answer or rejection after it']);
  });

  it('fails a record without a validation decision or grant, or with another receipt or code', () => {
    const bare = callFindings([answered({ validation: undefined, grant: undefined })], [call()]);
    expect(bare.map((f) => f.expectation)).toEqual([
      'the record gives the input-validation decision',
      "the record gives the grant's identity and expiry, or null",
    ]);
    const receipt = callFindings([answered({ receipt: { tool: 'search_notes', permission: 'notes.read', trust: 'untrusted', data_classification: 'workspace' } })], [call()]);
    expect(receipt.map((f) => f.expectation)).toEqual(['the record gives the receipt the agent got']);
    const code = callFindings(
      [answered({ decision: 'call_refused', dispatched: false, receipt: null, code: 'policy_denied' })],
      [call({ received: 0, answer: { code: 'permission_not_granted' } })],
    );
    expect(code.map((f) => f.observed)).toEqual(['policy_denied']);
  });
});

describe('audit_contract: pinned', () => {
  const schema = { type: 'object', properties: { query: { type: 'string' } } };
  const listing = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'search_notes', description: 'Searches notes.', inputSchema: schema }] } });
  const ledger: LedgerRecord[] = [
    { ev: 'recv', pid: 7, seq: 1, bytes: 0, sha256: '', raw: '', raw_truncated: false, method: 'tools/list', id: '1', tool: null, phase: 'review' },
    { ev: 'sent', pid: 7, seq: 2, bytes: listing.length, sha256: '', raw: listing, raw_truncated: false, in_reply_to: '1', method: null },
  ];
  const contract = { description_sha256: sha256('Searches notes.'), input_schema_sha256: sha256('{"properties":{"query":{"type":"string"}},"type":"object"}') };
  const operator = { source_version: '1.4.2', tools: {} };
  const record = (overrides: Partial<NeutralAuditRecord> = {}) => answered({ contract, source_version: '1.4.2', ...overrides });

  it('accepts records naming the contract the server presented for review and the reviewed version', () => {
    expect(contractFindings([record({ decision: 'registered' }), record(), record({ decision: 'call_refused', contract: null })], ledger, operator)).toEqual([]);
  });

  it('fails another hash, a missing contract, the server-reported version, or no review in the ledger', () => {
    const other = record({ contract: { ...contract, input_schema_sha256: sha256('{}') } });
    expect(contractFindings([other], ledger, operator)).toHaveLength(1);
    expect(contractFindings([record({ contract: null })], ledger, operator)).toHaveLength(1);
    expect(contractFindings([record({ source_version: '9.9.9' })], ledger, operator)[0]?.expected).toBe('1.4.2');
    expect(contractFindings([record()], [], operator)[0]?.expectation).toBe('the server presented tools for review');
    // Only refusals, none tied to a contract: the trail shows nothing relied on the review.
    expect(contractFindings([record({ decision: 'call_refused', contract: null })], ledger, operator)[0]?.expectation).toBe('records tied to the reviewed contract');
  });
});
