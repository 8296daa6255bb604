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
