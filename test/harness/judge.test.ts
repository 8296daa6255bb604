import { describe, expect, it } from 'vitest';
import type { Answer } from '../../harness/agent/client.js';
import type { SessionSpec } from '../../harness/candidates/types.js';
import type { CallFacts, Finding, Hook } from '../../harness/expect/types.js';
import { judge } from '../../harness/run/judge.js';
import { failureOf } from '../../harness/run/outcome.js';
import type { StepRecord } from '../../harness/run/steps.js';
import type { CallExpectation, ScenarioExpectation } from '../../harness/scenario/types.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';

const result = (result: Record<string, unknown>): Answer => ({ kind: 'result', result, raw: JSON.stringify({ jsonrpc: '2.0', id: 1, result }) });

/** A call step that received `answer`, with `received` calls of write_note in the ledger after it. */
function callStep(expect: CallExpectation, answer: Answer, received: number): { steps: StepRecord[]; records: LedgerRecord[] } {
  const records: LedgerRecord[] = Array.from({ length: received }, (_, seq) => ({
    ev: 'recv', pid: 5, seq, bytes: 0, sha256: '', raw: '{}', raw_truncated: false, method: 'tools/call', id: String(seq), tool: 'write_note', phase: 'run',
  }));
  const facts: CallFacts = { label: '2:call', mark: 0, end: records.length, step: { tool: 'write_note', expect }, calledAs: 'write_note', serverTool: 'write_note', args: {}, answer, others: [], next: undefined };
  return { steps: [{ block: 'call', expect, facts }], records };
}

const run = ({ steps, records }: { steps: StepRecord[]; records: LedgerRecord[] }, hooks: Hook[] = []) =>
  judge(steps, { records, kind: 'attack', spec: {} as SessionSpec }, new Set(hooks));

const refusal = result({ isError: true, content: [{ type: 'text', text: 'not allowed' }], structuredContent: { code: 'policy_denied' } });

describe('judging after the run', () => {
  it('a call held in other words is nonconformant; one let through is exposed; one never forwarded is over-blocked', () => {
    const held = run(callStep({ agent: 'refused', code: 'grant_missing', server_received: 0 }, refusal, 0));
    expect(held.findings.map((f) => [f.check, f.class])).toEqual([['call.code', 'contract']]);
    expect(failureOf('attack', held.findings)).toBe('nonconformant');

    const through = run(callStep({ agent: 'refused', code: 'policy_denied', server_received: 0 }, result({ content: [] }), 1));
    expect(through.findings.map((f) => f.check)).toEqual(['call.refused', 'call.code', 'call.server_received']);
    expect(failureOf('attack', through.findings)).toBe('exposed');

    const blocked = run(callStep({ agent: 'result', server_received: 1 }, refusal, 0));
    expect(blocked.findings.map((f) => [f.check, f.class])).toEqual([['call.answered', 'benign'], ['call.server_reached', 'benign']]);
    expect(failureOf('attack', blocked.findings)).toBe('over-blocked');
    expect(failureOf('control', [...blocked.findings, ...through.findings])).toBe('over-blocked');
  });

  it('a stamped label does not hide content that reached the agent, on any channel', () => {
    const stamped = result({ isError: true, content: [{ type: 'text', text: 'fine' }], structuredContent: { code: 'result_withheld', leaked: 'GAUNTLET-CANARY' } });
    const { findings } = run(callStep({ agent: 'refused', code: 'result_withheld', answer_excludes: ['GAUNTLET-CANARY'], server_received: 1 }, stamped, 1));
    expect(findings.map((f) => [f.check, f.class])).toEqual([['call.answer_excludes', 'harm']]);
  });

  it('a call that ran out of time mid-answer is judged for the harm of what arrived, and for nothing else', () => {
    const arrived: Answer = { kind: 'timeout', raw: `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"${'a'.repeat(70_000)}` };
    const expect_: CallExpectation = { agent: 'refused', code: 'result_too_large', answer_excludes: ['aaaaaaaa'], answer_max_bytes: 65_536, server_received: 1, notifications: { min: { 'notifications/progress': 1 } } };
    const step = callStep(expect_, arrived, 1);
    const { findings } = run({ ...step, steps: step.steps.map((record) => ({ ...record, unfinished: true as const })) });
    // Neither the refusal's shape (contract) nor an observation asked of the broker afterwards.
    expect(findings.map((f) => [f.check, f.class])).toEqual([
      ['call.answer_excludes', 'harm'],
      ['call.answer_max_bytes', 'harm'],
    ]);
    // What arrived without harm leaves nothing to judge: the case stays an error (steps.ts).
    const harmless = callStep(expect_, { kind: 'timeout', raw: '{"jsonrpc":"2.0","id":3,"res' }, 1);
    expect(run({ ...harmless, steps: harmless.steps.map((record) => ({ ...record, unfinished: true as const })) }).findings).toEqual([]);
    // A step about answering in time is judged whole: its silence, and what arrived before it.
    const late = run(callStep({ ...expect_, within_ms: 500 }, arrived, 1));
    expect(late.findings.map((f) => f.check)).toEqual(['call.within_ms', 'call.code', 'call.answer_excludes', 'call.answer_max_bytes', 'call.notifications_min']);
    expect(late.findings[0]?.observed).toBe('no whole answer before the step timeout (70068 bytes of an unfinished one had arrived)');
  });

  it('an argument that must not reach the server has reached it under another spelling of its name', () => {
    const received = (args: Record<string, unknown>) => {
      const step = callStep({ agent: 'result', server_received: 1, server_arguments_absent: ['folder'] }, result({ content: [] }), 1);
      step.records[0] = { ...step.records[0]!, raw: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'write_note', arguments: args } }) } as LedgerRecord;
      return run(step).findings.map((f) => `${f.check}: ${String(f.observed)}`);
    };
    expect(received({ Folder: 'secrets' })).toEqual(['call.server_arguments_absent: "secrets" as "Folder"']);
    expect(received({ 'fol\u200bder': 'secrets' })).toEqual(['call.server_arguments_absent: "secrets" as "fol\u200bder"']);
    expect(received({ folder: 'secrets' })).toEqual(['call.server_arguments_absent: "secrets"']);
    expect(received({ folders: 'archive' })).toEqual([]);
  });

  it('an answer the server sent that never reached the agent is the benign use broken, with the harm of the step still judged', () => {
    const expect_: CallExpectation = { agent: 'result', text_includes: ['notes'], server_received: 1, server_arguments_absent: ['token'] };
    const dropped = callStep(expect_, { kind: 'timeout' }, 1);
    (dropped.steps[0]!.facts as CallFacts).undelivered = 'the server answered tools/call write_note (80 bytes) and the agent received nothing within 30000 ms';
    const { findings } = run({ ...dropped, steps: dropped.steps.map((record) => ({ ...record, unfinished: true as const })) });
    expect(findings.map((f) => [f.check, f.class])).toEqual([['call.delivered', 'benign']]);
    expect(failureOf('control', findings)).toBe('over-blocked');
    // A broker that hung with no answer from the server to pass on has shown nothing: no finding,
    // and the case stays an error (steps.ts records no unfinished step for it).
    const hung = callStep(expect_, { kind: 'timeout' }, 1);
    expect(run({ ...hung, steps: hung.steps.map((record) => ({ ...record, unfinished: true as const })) }).findings).toEqual([]);
  });

  it('a check whose hook the candidate lacks is listed as not taken, never passed silently', () => {
    const expect_: ScenarioExpectation = { load_report: { unclassified: ['write_note'] } };
    const steps: StepRecord[] = [{ block: 'scenario', expect: expect_, facts: { label: 'end', calls: [], canary: { requests: 0, records: [] } } }];
    const without = judge(steps, { records: [], kind: 'attack', spec: {} as SessionSpec }, new Set());
    expect(without.findings).toEqual([]);
    expect(without.unchecked.map((u) => u.hook)).toContain('load-report');
    const withHook = judge(steps, { records: [], kind: 'attack', spec: {} as SessionSpec }, new Set(['load-report']));
    expect(withHook.findings.map((f: Finding) => f.check)).toEqual(['load_report.written']);
  });
});
