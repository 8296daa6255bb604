import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { dropperCandidate } from '../../harness/candidates/dropper.js';
import { answered } from '../../harness/observe/ledger.js';
import { runScenario } from '../../harness/run/execute.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';

/**
 * A broker that silently drops what it cannot handle leaves the agent waiting. Where the ledger
 * shows the server answered, the control is over-blocked on `delivered` (the example: a
 * broker dropping every line with non-ASCII got `error` on 8 controls); a broker that hangs with
 * no answer from the server stays an error. Never a pass.
 */
const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));

/** Long enough for a loaded machine's kit server to answer; the dropped answer costs the wait once. */
const STEP_TIMEOUT_MS = 8_000;

describe('an answer the server sent that the agent never received', () => {
  it('over-blocks a control whose call answer was dropped', async () => {
    const result = await runScenario(scenarios.get('ins.japanese-result')!, dropperCandidate('non-ascii'), { stepTimeoutMs: STEP_TIMEOUT_MS });
    expect(result.outcome, result.reason).toBe('fail');
    expect(result.failure).toBe('over-blocked');
    expect(result.findings.map((finding) => [finding.check, finding.class])).toEqual([['call.delivered', 'benign']]);
    expect(String(result.findings[0]?.observed)).toMatch(/^the server answered tools\/call search_notes \(\d+ bytes\) and the agent received nothing within 8000 ms$/);
  }, 60_000);

  it('stays an error for a broker the server never answered through', async () => {
    const scenario = scenarios.get('ins.japanese-result')!;
    const hung = { ...scenario, server: { ...scenario.server, knobs: { ...scenario.server.knobs, hang_on_call: 'search_notes' } } };
    const result = await runScenario(hung, dropperCandidate('non-ascii'), { stepTimeoutMs: STEP_TIMEOUT_MS });
    expect(result.outcome).toBe('error');
    expect(result.findings).toEqual([]);
  }, 60_000);
});

/**
 * Attacks judged by what must not arrive in a notification (raw control characters, a lent
 * credential, a flood past the bound): each also needs the notification to arrive, or a broker
 * that forwards none would hold them for having shown the agent nothing.
 */
const ABSENCE_NEEDS_PRESENCE = ['ntf.log-control-characters', 'ntf.log-server-env', 'ntf.log-flood', 'ntf.resources-changed-flood', 'ntf.prompts-changed-flood'];

/**
 * Attacks where withholding the whole notification is a protection (the reference withholds a
 * log line carrying a canary; a forged progress token must not reach the agent): the presence
 * that gives their absence its meaning is their control's, so a broker forwarding nothing is
 * not held.
 */
const PRESENCE_IN_CONTROL: Record<string, string> = { 'ntf.log-canary': 'ntf.log-line-arrives', 'ntf.progress-forged-token': 'ntf.progress-own-token' };

describe('a broker that forwards no notification', () => {
  for (const id of ABSENCE_NEEDS_PRESENCE) {
    it(`does not pass ${id}: the notification never arrived`, async () => {
      const result = await runScenario(scenarios.get(id)!, dropperCandidate('notifications'), { stepTimeoutMs: STEP_TIMEOUT_MS });
      expect(result.outcome, result.reason).toBe('fail');
      expect(result.findings.map((finding) => finding.check)).toContain('call.notifications_min');
    }, 60_000);
  }

  for (const [id, control] of Object.entries(PRESENCE_IN_CONTROL)) {
    it(`does not hold ${id}: its control ${control} is over-blocked`, async () => {
      expect(scenarios.get(id)!.control).toBe(control);
      const result = await runScenario(scenarios.get(control)!, dropperCandidate('notifications'), { stepTimeoutMs: STEP_TIMEOUT_MS });
      expect(result.failure, result.reason).toBe('over-blocked');
      expect(result.findings.map((finding) => finding.check)).toContain('call.notifications_min');
    }, 60_000);
  }
});

describe('answered', () => {
  const recv = (seq: number, method: string, id: string | null, tool: string | null = null): LedgerRecord => ({
    ev: 'recv', pid: 7, seq, bytes: 0, sha256: '', raw: '', raw_truncated: false, method, id, tool, phase: 'run',
  });
  const sent = (seq: number, inReplyTo: string, pid = 7): LedgerRecord => ({ ev: 'sent', pid, seq, bytes: 12, sha256: '', raw: '', raw_truncated: false, in_reply_to: inReplyTo, method: null });

  it("pairs a request with its own server's reply, by id, for the tool asked", () => {
    const records = [recv(0, 'tools/call', '1', 'read_note'), recv(1, 'tools/call', '2', 'search_notes'), sent(2, '2', 8), sent(3, '2')];
    expect(answered(records, 'tools/call', 'search_notes')?.reply.seq).toBe(3);
    expect(answered(records, 'tools/call', 'read_note')).toBeUndefined();
    expect(answered([recv(0, 'resources/read', null)], 'resources/read')).toBeUndefined();
  });
});
