import { isDeepStrictEqual } from 'node:util';
import type { LedgerRecord } from '../../../servers/kit/ledger.js';
import type { NeutralAuditRecord } from '../../candidates/types.js';
import { chainProblem } from '../../observe/audit-chain.js';
import { receiptOf, refusalCode } from '../answer.js';
import { canonicalJson, sha256Hex } from '../../observe/canonical.js';
import { presentedContracts } from '../../observe/contracts.js';
import { firstUnescaped } from '../../observe/escaped.js';
import type { AuditPattern, OperatorConfig } from '../../scenario/types.js';
import { receivedBy } from '../call/received.js';
import { expectation, type CallFacts, type Fail, type Judged } from '../types.js';

/** The decisions that end a call: refused before dispatch, answered, or rejected after dispatch. */
const CALL_OUTCOMES = new Set(['call_refused', 'call_answered', 'call_rejected']);

/** Decisions that rely on a tool's reviewed contract, so their records must name it. */
const CONTRACT_DECISIONS = new Set(['registered', 'allowed', 'call_answered', 'call_rejected']);

const VALIDATION_DECISIONS = new Set(['passed', 'failed', 'not_checked']);


/**
 * Every field the pattern gives is equal; for `grant` and `receipt`, every field given within.
 * An `expires_at` is an RFC 3339 instant, equal when it names the same instant however written.
 */
function matches(record: NeutralAuditRecord, pattern: AuditPattern): boolean {
  return Object.entries(pattern).every(([key, wanted]) => {
    const value = (record as unknown as Record<string, unknown>)[key];
    if (wanted === null || typeof wanted !== 'object') return value === wanted;
    if (value === null || typeof value !== 'object') return false;
    return Object.entries(wanted as Record<string, unknown>).every(([field, fieldWanted]) => {
      const fieldValue = (value as Record<string, unknown>)[field];
      if (field !== 'expires_at') return fieldValue === fieldWanted;
      return typeof fieldValue === 'string' && Date.parse(fieldValue) === Date.parse(String(fieldWanted));
    });
  });
}

function escapeFindings(records: readonly NeutralAuditRecord[], fail: Fail): void {
  if (records.length === 0) fail('audit.kept', 'escaped audit records', 'records to inspect', 'none');
  for (const record of records) {
    const raw = firstUnescaped(record);
    if (raw !== undefined) fail('audit.escaped', 'escaped audit records', 'no raw control, bidi or zero-width characters', JSON.stringify(raw));
  }
}

/**
 * Each call the agent made has one outcome record of its own, naming the operation (the name
 * called and the digest of the arguments as sent). The record must agree with both sides: with
 * the ledger on whether the server was sent the call, and with the agent on the receipt or code.
 */
function callFindings(records: readonly NeutralAuditRecord[], calls: readonly CallFacts[], judged: Judged, report: Fail): void {
  const used = new Set<number>();
  for (const call of calls) {
    const fail = (expectation: string, expected: unknown, observed: unknown) => report('audit.calls', expectation, expected, observed, call.label);
    const operation = { name: call.step.tool, arguments_sha256: sha256Hex(canonicalJson(call.args)) };
    const index = records.findIndex(
      (record, i) => !used.has(i) && CALL_OUTCOMES.has(record.decision) && isDeepStrictEqual(record.operation ?? null, operation),
    );
    if (index < 0) {
      fail('an audit record of the call and its outcome', { decision: [...CALL_OUTCOMES].join(' | '), operation }, `${records.length} records, none of this call`);
      continue;
    }
    used.add(index);
    const record = records[index]!;
    const dispatched = receivedBy(call, judged).length > 0;
    if (record.dispatched !== dispatched) fail('the record says whether the server was sent the call (ledger)', dispatched, record.dispatched);
    if ((record.decision === 'call_refused') !== (record.dispatched === false)) {
      fail('a refusal before dispatch is told apart from an answer or rejection after it', 'call_refused exactly when not dispatched', `${record.decision}, dispatched ${String(record.dispatched)}`);
    }
    if (!VALIDATION_DECISIONS.has(String(record.validation))) fail('the record gives the input-validation decision', [...VALIDATION_DECISIONS].join(' | '), record.validation);
    const grant = record.grant;
    if (grant === undefined || (grant !== null && (typeof grant.id !== 'string' || typeof grant.expires_at !== 'string'))) {
      fail("the record gives the grant's identity and expiry, or null", '{ id, expires_at } or null', grant ?? '(absent)');
    }
    const receipt = receiptOf(call.answer);
    if (receipt !== undefined && (record.decision !== 'call_answered' || !isDeepStrictEqual(record.receipt ?? null, receipt))) {
      fail('the record gives the receipt the agent got', { decision: 'call_answered', receipt }, { decision: record.decision, receipt: record.receipt });
    }
    const code = refusalCode(call.answer);
    if (code !== undefined && record.code !== code) fail('the record gives the refusal the agent got', code, record.code);
  }
}

/**
 * Records about a tool name the contract the operator reviewed: the hashes of what the server
 * presented in phase `review` (taken from the ledger, not from the candidate) and the operator's
 * source version, whatever the server said about itself later.
 */
function contractFindings(records: readonly NeutralAuditRecord[], ledger: readonly LedgerRecord[], operator: OperatorConfig, fail: Fail): void {
  const { contracts, problem } = presentedContracts(ledger);
  if (problem !== undefined) {
    fail('audit.reviewed', 'the reviewed listing can be read from the ledger', 'a whole listing answer', problem);
    return;
  }
  if (contracts.size === 0) {
    fail('audit.reviewed', 'the server presented tools for review', 'a review-phase listing in the ledger', 'none');
    return;
  }
  const sourceVersion = operator.source_version ?? null;
  let tied = 0;
  for (const record of records) {
    if ((record.source_version ?? null) !== sourceVersion) {
      fail('audit.contract', `${record.decision} record names the reviewed source version`, sourceVersion, record.source_version ?? '(absent)');
    }
    if (!CONTRACT_DECISIONS.has(record.decision) && (record.contract ?? null) === null) continue;
    const presented = record.tool === null ? undefined : contracts.get(record.tool);
    if (!isDeepStrictEqual(record.contract ?? null, presented ?? null)) {
      fail('audit.contract', `${record.decision} record of ${String(record.tool)} names the reviewed contract`, presented ?? null, record.contract ?? '(absent)');
    }
    tied += 1;
  }
  if (tied === 0) fail('audit.contract', 'records tied to the reviewed contract', 'at least one', 'none');
}

/**
 * The candidate's audit trail in neutral form (docs/call-path.md), read through its `audit` hook:
 * the broker's own record, so each check is `record`, cross-checked against the ledger (was the
 * call dispatched, what was presented for review) and against what the agent got.
 */
export const auditTrail = expectation({
  block: 'scenario',
  name: 'audit',
  hook: 'audit',
  doc: 'the audit trail, read through the adapter\'s `audit` hook: `audit` (records it must hold), `audit_absent` (records it must not hold), `audit_escaped` (no raw control, bidi or zero-width character in any text field), `audit_calls: complete` (each call has an outcome record agreeing with the ledger and the agent), `audit_contract: pinned` (records name the reviewed contract\'s hashes and source version)',
  properties: {
    audit: { type: 'array', minItems: 1, items: { $ref: '#/$defs/auditPattern' } },
    audit_absent: { type: 'array', minItems: 1, items: { $ref: '#/$defs/auditPattern' } },
    audit_escaped: { const: true },
    audit_calls: { const: 'complete' },
    audit_contract: { const: 'pinned' },
  },
  checks: {
    'audit.kept': { class: 'record', doc: 'the trail has records to judge' },
    'audit.record': { class: 'record', doc: 'the trail holds the record of what happened' },
    'audit.no_forged_record': { class: 'record', doc: 'the trail holds no record a hostile value forged' },
    'audit.escaped': { class: 'record', doc: 'no text field of a record can forge a line or hide text' },
    'audit.calls': { class: 'record', doc: 'every call has its outcome record, agreeing with the ledger and the agent' },
    'audit.reviewed': { class: 'benign', doc: 'the server presented a listing for review' },
    'audit.contract': { class: 'record', doc: 'records name the contract the operator reviewed' },
  },
  async observe(_expect, facts, live) {
    facts.audit = (await live.candidate.audit?.(live.spec)) ?? [];
  },
  judge(expect, facts, judged, fail) {
    const records = facts.audit ?? [];
    for (const pattern of expect.audit ?? []) {
      if (!records.some((record) => matches(record, pattern))) fail('audit.record', 'audit record', pattern, `${records.length} records, none matching`);
    }
    for (const pattern of expect.audit_absent ?? []) {
      if (records.some((record) => matches(record, pattern))) fail('audit.no_forged_record', 'no such audit record', pattern, 'present');
    }
    if (expect.audit_escaped) escapeFindings(records, fail);
    if (expect.audit_calls) callFindings(records, facts.calls, judged, fail);
    if (expect.audit_contract) contractFindings(records, judged.records, judged.spec.operator, fail);
  },
});

/** The trail's lines exactly as written, chained by hash (docs/call-path.md), through `auditLines`. */
export const auditChain = expectation({
  block: 'scenario',
  name: 'audit_chain',
  hook: 'audit-lines',
  doc: 'the trail, read as written through the adapter\'s `auditLines` hook, verifies as a hash chain (docs/call-path.md)',
  properties: { audit_chain: { const: 'intact' } },
  checks: { 'audit.chain': { class: 'record', doc: 'every record is linked to the one before and hashed' } },
  async observe(_expect, facts, live) {
    facts.auditLines = (await live.candidate.auditLines?.(live.spec)) ?? [];
  },
  judge(_expect, facts, _judged, fail) {
    const problem = chainProblem(facts.auditLines ?? []);
    if (problem !== undefined) fail('audit.chain', 'audit trail chained by hash', 'every record linked and hashed', problem);
  },
});
