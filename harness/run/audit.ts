import { isDeepStrictEqual } from 'node:util';
import type { LedgerRecord } from '../../servers/kit/ledger.js';
import type { NeutralAuditRecord } from '../candidates/types.js';
import { chainProblem } from '../observe/audit-chain.js';
import { canonicalJson, sha256Hex } from '../observe/canonical.js';
import { presentedContracts } from '../observe/contracts.js';
import { firstUnescaped } from '../observe/escaped.js';
import type { AuditPattern, OperatorConfig, ScenarioExpectation } from '../scenario/types.js';
import type { Finding } from './outcome.js';
import type { ObservedCall, ScenarioSession } from './steps.js';

/** The decisions that end a call: refused before dispatch, answered, or rejected after dispatch. */
const CALL_OUTCOMES = new Set(['call_refused', 'call_answered', 'call_rejected']);

/** Decisions that rely on a tool's reviewed contract, so their records must name it. */
const CONTRACT_DECISIONS = new Set(['registered', 'allowed', 'call_answered', 'call_rejected']);

const VALIDATION_DECISIONS = new Set(['passed', 'failed', 'not_checked']);

const finding = (expectation: string, expected: unknown, observed: unknown, step = 'end'): Finding => ({ step, expectation, expected, observed });

/** Everything a scenario expects of the candidate's audit trail in neutral form (docs/call-path.md). */
export async function auditFindings(session: ScenarioSession, expect: ScenarioExpectation | undefined, ledger: readonly LedgerRecord[]): Promise<Finding[]> {
  if (!expect?.audit && !expect?.audit_absent && !expect?.audit_escaped && !expect?.audit_calls && !expect?.audit_contract) return [];
  const { candidate } = session;
  if (!candidate.info.features.includes('audit') || !candidate.audit) {
    session.notes.push('audit expectations not checked: the candidate does not declare an audit trail');
    return [];
  }
  const records = await candidate.audit(session.spec);
  const findings: Finding[] = [];
  for (const pattern of expect.audit ?? []) {
    if (!records.some((record) => matches(record, pattern))) findings.push(finding('audit record', pattern, `${records.length} records, none matching`));
  }
  for (const pattern of expect.audit_absent ?? []) {
    if (records.some((record) => matches(record, pattern))) findings.push(finding('no such audit record', pattern, 'present'));
  }
  if (expect.audit_escaped) findings.push(...escapeFindings(records));
  if (expect.audit_calls) findings.push(...callFindings(records, session.observedCalls(ledger)));
  if (expect.audit_contract) findings.push(...contractFindings(records, ledger, session.spec.operator));
  return findings;
}

export async function chainFindings(session: ScenarioSession, expect: ScenarioExpectation | undefined): Promise<Finding[]> {
  if (!expect?.audit_chain) return [];
  const { candidate } = session;
  if (!candidate.info.features.includes('audit-chain') || !candidate.auditLines) {
    session.notes.push('audit-chain expectation not checked: the candidate does not declare a chained trail');
    return [];
  }
  const problem = chainProblem(await candidate.auditLines(session.spec));
  return problem === undefined ? [] : [finding('audit trail chained by hash', 'every record linked and hashed', problem)];
}

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

function escapeFindings(records: readonly NeutralAuditRecord[]): Finding[] {
  if (records.length === 0) return [finding('escaped audit records', 'records to inspect', 'none')];
  return records.flatMap((record) => {
    const raw = firstUnescaped(record);
    return raw === undefined ? [] : [finding('escaped audit records', 'no raw control, bidi or zero-width characters', JSON.stringify(raw))];
  });
}

/**
 * Each call the agent made has one outcome record of its own, naming the operation (the name
 * called and the digest of the arguments as sent). The record must agree with both sides: with
 * the ledger on whether the server was sent the call, and with the agent on the receipt or code.
 */
export function callFindings(records: readonly NeutralAuditRecord[], calls: readonly ObservedCall[]): Finding[] {
  const findings: Finding[] = [];
  const used = new Set<number>();
  for (const call of calls) {
    const fail = (expectation: string, expected: unknown, observed: unknown) => findings.push(finding(expectation, expected, observed, call.label));
    const operation = { name: call.tool, arguments_sha256: sha256Hex(canonicalJson(call.args)) };
    const index = records.findIndex(
      (record, i) => !used.has(i) && CALL_OUTCOMES.has(record.decision) && isDeepStrictEqual(record.operation ?? null, operation),
    );
    if (index < 0) {
      fail('an audit record of the call and its outcome', { decision: [...CALL_OUTCOMES].join(' | '), operation }, `${records.length} records, none of this call`);
      continue;
    }
    used.add(index);
    const record = records[index]!;
    const dispatched = call.received > 0;
    if (record.dispatched !== dispatched) fail('the record says whether the server was sent the call (ledger)', dispatched, record.dispatched);
    if ((record.decision === 'call_refused') !== (record.dispatched === false)) {
      fail('a refusal before dispatch is told apart from an answer or rejection after it', 'call_refused exactly when not dispatched', `${record.decision}, dispatched ${String(record.dispatched)}`);
    }
    if (!VALIDATION_DECISIONS.has(String(record.validation))) fail('the record gives the input-validation decision', [...VALIDATION_DECISIONS].join(' | '), record.validation);
    const grant = record.grant;
    if (grant === undefined || (grant !== null && (typeof grant.id !== 'string' || typeof grant.expires_at !== 'string'))) {
      fail("the record gives the grant's identity and expiry, or null", '{ id, expires_at } or null', grant ?? '(absent)');
    }
    const answer = call.answer;
    if (answer?.receipt !== undefined && (record.decision !== 'call_answered' || !isDeepStrictEqual(record.receipt ?? null, answer.receipt))) {
      fail('the record gives the receipt the agent got', { decision: 'call_answered', receipt: answer.receipt }, { decision: record.decision, receipt: record.receipt });
    }
    if (answer?.code !== undefined && record.code !== answer.code) fail('the record gives the refusal the agent got', answer.code, record.code);
  }
  return findings;
}

/**
 * Records about a tool name the contract the operator reviewed: the hashes of what the server
 * presented in phase `review` (taken from the ledger, not from the candidate) and the operator's
 * source version, whatever the server said about itself later.
 */
export function contractFindings(records: readonly NeutralAuditRecord[], ledger: readonly LedgerRecord[], operator: OperatorConfig): Finding[] {
  const { contracts, problem } = presentedContracts(ledger);
  if (problem !== undefined) return [finding('the reviewed listing can be read from the ledger', 'a whole listing answer', problem)];
  if (contracts.size === 0) return [finding('the server presented tools for review', 'a review-phase listing in the ledger', 'none')];
  const findings: Finding[] = [];
  const sourceVersion = operator.source_version ?? null;
  let tied = 0;
  for (const record of records) {
    if ((record.source_version ?? null) !== sourceVersion) {
      findings.push(finding(`${record.decision} record names the reviewed source version`, sourceVersion, record.source_version ?? '(absent)'));
    }
    if (!CONTRACT_DECISIONS.has(record.decision) && (record.contract ?? null) === null) continue;
    const presented = record.tool === null ? undefined : contracts.get(record.tool);
    if (!isDeepStrictEqual(record.contract ?? null, presented ?? null)) {
      findings.push(finding(`${record.decision} record of ${String(record.tool)} names the reviewed contract`, presented ?? null, record.contract ?? '(absent)'));
    }
    tied += 1;
  }
  if (tied === 0) findings.push(finding('records tied to the reviewed contract', 'at least one', 'none'));
  return findings;
}
