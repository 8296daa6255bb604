// Each guard on a call to a visible tool, with its refusal codes, and the guards on what an
// agent may see. The clock is injected, so "now" is exact.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { ApprovalStore } from '../../src/session/approvals.js';
import { DEFAULT_POLICY } from '../../src/operator/config.js';
import { agentChain, grants, hiddenParamsRefused, inputValid, policy } from '../../src/guards/call.js';
import { agentVisibility, registeredCallsOnly } from '../../src/guards/session.js';
import { driftClosesSession, quarantinedRefused } from '../../src/guards/drift.js';
import { Quarantine } from '../../src/load/quarantine.js';
import type { CallSubject, CallVerdict } from '../../src/guards/types.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { CONTEXT, NOW, context, json, registeredTool, rule } from './builders.js';
import type { Policy } from '../../src/types.js';

const PASS = { kind: 'pass' };
/** input-valid's pass also tells the audit trail the arguments were validated. */
const VALID = { kind: 'pass', findings: { validation: 'passed' } };
const write = registeredTool('write_note', rule('local_change', {
  deny: ['sidenote'],
  fixed: [['folder', readJson('"inbox"')]],
  permission: 'notes.write',
}), '{"type":"object","properties":{"text":{"type":"string","maxLength":5},"sidenote":{},"folder":{}},"required":["text","folder"],"additionalProperties":false}');

const call = (args = '{"text":"hi"}', chain?: string): CallSubject => ({
  name: write.name,
  tool: write,
  args: json(args),
  chain: chain === undefined ? undefined : readJson(chain),
});
const code = (verdict: CallVerdict) => (verdict.kind === 'refuse' ? verdict.refusal.code : 'pass');

describe('visibility', () => {
  const agents = new Map([
    ['researcher', new Set(['read_note'])],
    ['writer', new Set(['write_note', 'read_note'])],
  ]);

  it('registered-calls-only sees only registered tools', () => {
    expect(registeredCallsOnly.visible('write_note', write, CONTEXT)).toBe(true);
    expect(registeredCallsOnly.visible('nothing', undefined, CONTEXT)).toBe(false);
  });

  it("agent-visibility sees only the agent's tools, by server name, and everything without agents", () => {
    expect(agentVisibility.visible('write_note', write, context({ agents, agent: 'writer' }))).toBe(true);
    expect(agentVisibility.visible('write_note', write, context({ agents, agent: 'researcher' }))).toBe(false);
    expect(agentVisibility.visible('write_note', write, context({ agents, agent: undefined }))).toBe(false);
    expect(agentVisibility.visible('write_note', write, context({ agent: 'anyone' }))).toBe(true);
    const renamed = { ...write, name: 'save_note' };
    expect(agentVisibility.visible('save_note', renamed, context({ agents, agent: 'writer' }))).toBe(true);
    // An agent the operator did not name sees nothing.
    expect(agentVisibility.visible('read_note', undefined, context({ agents, agent: 'mallory' }))).toBe(false);
    // A name no tool has (registered-calls-only disabled) is looked up as itself.
    expect(agentVisibility.visible('read_note', undefined, context({ agents, agent: 'researcher' }))).toBe(true);
  });
});

describe('drift-quarantine', () => {
  it('passes a tool nothing holds, and a name no tool has', () => {
    const quarantine = new Quarantine();
    quarantine.hold('read_note', 'schema-pin');
    expect(quarantinedRefused.check(call(), context({ quarantine }))).toEqual(PASS);
    expect(quarantinedRefused.check({ ...call(), tool: undefined }, context({ quarantine }))).toEqual(PASS);
  });

  it('refuses a held tool by the name the agent called, with the guard that found it drifted and nothing of the server\u2019s', () => {
    const quarantine = new Quarantine();
    quarantine.hold(write.name, 'description-pin');
    expect(quarantinedRefused.check(call(), context({ quarantine }))).toEqual({
      kind: 'refuse',
      refusal: {
        code: 'tool_quarantined',
        sentence: 'write_note is quarantined: during this session the server presented it differently from what was reviewed (description-pin), and it stays refused until the operator reviews it again.',
        fields: {},
      },
    });
  });
});

describe('drift-closes-session', () => {
  it('closes the upstream naming every tool that drifted', async () => {
    const why: string[] = [];
    const drift = (name: string) => ({ tool: registeredTool(name), guard: 'schema-pin', reason: 'the input schema changed' });
    await driftClosesSession.react([drift('read_note'), drift('write_note')], { quarantine: new Quarantine(), closeUpstream: async (reason) => void why.push(reason) });
    expect(why).toEqual(['after read_note, write_note drifted']);
  });
});

describe('agent-chain', () => {
  const agents = new Map([
    ['planner', new Set(['write_note'])],
    ['writer', new Set(['write_note'])],
    ['researcher', new Set(['read_note'])],
  ]);
  const ctx = context({ agents, agent: 'writer' });

  it('passes without a chain, or when every hop allows the tool', () => {
    expect(agentChain.check(call(), ctx)).toEqual(PASS);
    expect(agentChain.check(call(undefined, '[]'), ctx)).toEqual(PASS);
    expect(agentChain.check(call(undefined, '["planner","writer"]'), ctx)).toEqual(PASS);
  });

  it('refuses a hop that may not use the tool, or that no one knows', () => {
    expect(agentChain.check(call(undefined, '["planner","researcher"]'), ctx)).toEqual({
      kind: 'refuse',
      refusal: { code: 'agent_chain_denied', sentence: 'an agent in the chain may not use this tool.', fields: { hop: 'researcher' } },
    });
    const unknown = agentChain.check(call(undefined, '["stranger"]'), ctx);
    expect(unknown.kind === 'refuse' && unknown.refusal.fields).toEqual({ hop: 'stranger' });
    // Without agents configured every hop is unknown.
    expect(code(agentChain.check(call(undefined, '["planner"]'), CONTEXT))).toBe('agent_chain_denied');
  });

  it('judges the chain by the name called when no tool is registered under it (registered-calls-only disabled)', () => {
    const unregistered = (chain: string): CallSubject => ({ name: 'write_note', tool: undefined, args: json('{}'), chain: readJson(chain) });
    expect(agentChain.check(unregistered('["planner","writer"]'), ctx)).toEqual(PASS);
    expect(code(agentChain.check(unregistered('["researcher"]'), ctx))).toBe('agent_chain_denied');
  });

  it('refuses a malformed chain with hop null', () => {
    for (const chain of ['"planner"', '["planner",1]', '{"0":"planner"}', 'null']) {
      const verdict = agentChain.check(call(undefined, chain), ctx);
      expect(verdict.kind === 'refuse' && verdict.refusal).toEqual({ code: 'agent_chain_denied', sentence: 'the agent chain is not a list of agent ids.', fields: { hop: null } });
    }
  });

  it('refuses more than 8 hops whatever they allow, and judges exactly 8', () => {
    const hops = (n: number) => JSON.stringify(Array.from({ length: n }, () => 'planner'));
    expect(agentChain.check(call(undefined, hops(8)), ctx)).toEqual(PASS);
    expect(agentChain.check(call(undefined, hops(9)), ctx)).toEqual({
      kind: 'refuse',
      refusal: { code: 'agent_chain_too_long', sentence: 'the agent chain names 9 hops; at most 8 are judged.', fields: { hops: 9 } },
    });
    expect(code(agentChain.check(call(undefined, JSON.stringify(Array(9).fill('stranger'))), ctx))).toBe('agent_chain_too_long');
  });
});

describe('hidden-params-refused', () => {
  it('refuses a call that supplies a denied or a fixed parameter', () => {
    expect(hiddenParamsRefused.check(call('{"text":"hi"}'), CONTEXT)).toEqual(PASS);
    expect(hiddenParamsRefused.check(call('{"text":"hi","sidenote":"x"}'), CONTEXT)).toEqual({
      kind: 'refuse',
      refusal: {
        code: 'parameter_not_allowed',
        sentence: 'the operator does not let a call set the parameter "sidenote".',
        fields: { parameter: 'sidenote' },
      },
    });
    const fixed = hiddenParamsRefused.check(call('{"folder":"inbox","text":"hi"}'), CONTEXT);
    expect(fixed.kind === 'refuse' && fixed.refusal.fields).toEqual({ parameter: 'folder' });
  });
});

describe('input-valid', () => {
  it('validates against the restricted schema: hidden names are neither required nor allowed', () => {
    expect(inputValid.check(call('{"text":"hi"}'), CONTEXT)).toEqual(VALID);
    expect(inputValid.check(call('{}'), CONTEXT)).toEqual({
      kind: 'refuse',
      refusal: {
        code: 'tool_input_schema_invalid',
        sentence: "the arguments do not satisfy the tool's input schema.",
        fields: { errors: ["/ must have required property 'text'"] },
      },
      findings: { validation: 'failed' },
    });
    const both = inputValid.check(call('{"text":"toolong","x":1}'), CONTEXT);
    expect(both.kind === 'refuse' && both.refusal.fields.errors).toEqual([
      '/ must NOT have additional properties',
      '/text must NOT have more than 5 characters',
    ]);
  });

  it('leaves hidden parameters to hidden-params-refused, judging the rest of the call', () => {
    expect(inputValid.check(call('{"text":"hi","sidenote":9007199254740993,"folder":"x"}'), CONTEXT)).toEqual(VALID);
    expect(code(inputValid.check(call('{"text":"hi","sidenote":"x","other":1}'), CONTEXT))).toBe('tool_input_schema_invalid');
  });

  it('refuses a number literal no float64 holds exactly, wherever it is', () => {
    const free = registeredTool('free');
    const subject = (args: string): CallSubject => ({ name: 'free', tool: free, args: json(args), chain: undefined });
    expect(inputValid.check(subject('{"a":9007199254740992,"b":1.50,"c":1e21,"d":-0,"e":0.1}'), CONTEXT)).toEqual(VALID);
    const verdict = inputValid.check(subject('{"a":9007199254740993,"b":[1,1e400],"c/d":{"e":1e-400},"f":0.1000000000000000000001}'), CONTEXT);
    expect(verdict.kind === 'refuse' && verdict.refusal.fields.errors).toEqual([
      '/a holds a number a float64 does not hold exactly',
      '/b/1 holds a number a float64 does not hold exactly',
      '/c~1d/e holds a number a float64 does not hold exactly',
      '/f holds a number a float64 does not hold exactly',
    ]);
    // A schema that did not compile (schema-compiles disabled) leaves the numbers to judge.
    const uncompiled: CallSubject = { name: 'free', tool: { ...free, validator: undefined }, args: json('{"a":1}'), chain: undefined };
    expect(inputValid.check(uncompiled, CONTEXT)).toEqual(VALID);
    // Without a registered tool (registered-calls-only disabled) there is no schema, but numbers are still checked.
    expect(code(inputValid.check({ name: 'x', tool: undefined, args: json('{"a":1e400}'), chain: undefined }, CONTEXT))).toBe(
      'tool_input_schema_invalid',
    );
  });
});

describe('grants (injected clock)', () => {
  const withGrants = (...expiries: number[]) =>
    context({ grants: expiries.map((expiresAt, i) => ({ id: `g${i}`, permission: 'notes.write', expiresAt })) });

  it('passes under a grant that expires after now, naming the one that lasts longest', () => {
    const grant = { id: 'g0', permission: 'notes.write', expiresAt: NOW + 1 };
    expect(grants.check(call(), withGrants(NOW + 1))).toEqual({ kind: 'pass', findings: { grant } });
    expect(grants.check(call(), withGrants(NOW - 1, NOW + 0.5))).toMatchObject({ kind: 'pass', findings: { grant: { id: 'g1' } } });
  });

  it('an expiry equal to now has expired', () => {
    expect(grants.check(call(), withGrants(NOW))).toEqual({
      kind: 'refuse',
      refusal: { code: 'grant_expired', sentence: 'every grant of the permission "notes.write" has expired.', fields: { permission: 'notes.write' } },
      findings: { grant: { id: 'g0', permission: 'notes.write', expiresAt: NOW } },
    });
    expect(code(grants.check(call(), withGrants(NOW - 1, NOW)))).toBe('grant_expired');
  });

  it('refuses permission_not_granted when no grant names the permission', () => {
    const other = context({ grants: [{ id: 'g-read', permission: 'notes.read', expiresAt: NOW + 1000 }] });
    expect(grants.check(call(), other)).toEqual({
      kind: 'refuse',
      refusal: { code: 'permission_not_granted', sentence: 'no grant gives the permission "notes.write".', fields: { permission: 'notes.write' } },
    });
    expect(code(grants.check(call(), CONTEXT))).toBe('permission_not_granted');
  });

  it('relies on the grant that lasts longest wherever it is listed, and on the first of equals', () => {
    expect(grants.check(call(), withGrants(NOW + 5, NOW + 1))).toMatchObject({ findings: { grant: { id: 'g0' } } });
    expect(grants.check(call(), withGrants(NOW + 5, NOW + 5))).toMatchObject({ findings: { grant: { id: 'g0' } } });
  });

  it('a tool without a rule (classified disabled) needs no grant', () => {
    expect(grants.check({ ...call(), tool: { ...write, rule: undefined } }, CONTEXT)).toEqual(PASS);
  });

  it('a tool without a permission needs no grant', () => {
    const free = registeredTool('free');
    expect(grants.check({ name: 'free', tool: free, args: json('{}'), chain: undefined }, CONTEXT)).toEqual(PASS);
  });
});

describe('policy and approvals', () => {
  const stateDir = tempDirs('broker-policy-');
  let dir = '';
  const withPolicy = (local: Policy['local_change'], clock = () => NOW) => {
    dir = stateDir();
    return context({ policy: { ...DEFAULT_POLICY, local_change: local }, approvals: new ApprovalStore(dir), agent: 'writer', clock });
  };

  it('allows and denies by effect class', () => {
    expect(policy.check(call(), withPolicy('allow'))).toEqual(PASS);
    expect(policy.check(call(), withPolicy('deny'))).toEqual({
      kind: 'refuse',
      refusal: { code: 'policy_denied', sentence: "the operator's policy denies local_change tools.", fields: { effect: 'local_change' } },
    });
  });

  it('holds a call for approval, runs the approved identical call once, then asks again', () => {
    const ctx = withPolicy('approve');
    const first = policy.check(call(), ctx);
    expect(first).toMatchObject({ kind: 'refuse', refusal: { code: 'approval_required' }, event: { decision: 'approval_requested' } });
    const requestId = first.kind === 'refuse' ? String(first.refusal.fields.request_id) : '';
    // Pending: the identical call gets the same request, and no new event.
    const again = policy.check(call(), ctx);
    expect(again).toEqual({ kind: 'refuse', refusal: expect.objectContaining({ fields: expect.objectContaining({ request_id: requestId, tool: 'write_note' }) }) });
    writeFileSync(join(dir, 'decisions', `${requestId}.json`), '{"decision":"approve"}');
    expect(policy.check(call(), ctx)).toEqual({
      kind: 'pass',
      note: `approved by request ${requestId}`,
      event: { decision: 'approval_granted', requestId },
    });
    const after = policy.check(call(), ctx);
    expect(after).toMatchObject({ refusal: { code: 'approval_required' }, event: { decision: 'approval_requested' } });
    expect(after.kind === 'refuse' && after.refusal.fields.request_id).not.toBe(requestId);
  });

  it('asks for approval of the exact call the server would get, fixed values included, with one event per request', () => {
    const ctx = withPolicy('approve');
    const first = policy.check(call(), ctx);
    const requestId = first.kind === 'refuse' ? String(first.refusal.fields.request_id) : '';
    const refusal = {
      code: 'approval_required',
      sentence: `this exact call waits for the operator's approval (request ${requestId}).`,
      fields: { request_id: requestId, tool: 'write_note', arguments: '{"text":"hi","folder":"inbox"}' },
    };
    expect(first).toStrictEqual({ kind: 'refuse', refusal, event: { decision: 'approval_requested', requestId } });
    expect(policy.check(call(), ctx)).toStrictEqual({ kind: 'refuse', refusal });
  });

  it.each([
    ['rejected', '{"decision":"reject"}', { code: 'approval_rejected', sentence: 'the operator rejected this exact call (request ID).' }, { decision: 'approval_rejected' }],
    ['expired', '{"decision":"approve","expires_at":"2029-12-31T23:59:59Z"}', { code: 'approval_expired', sentence: 'the approval for this exact call expired before it was used (request ID).' }, undefined],
  ])('refuses a call whose approval was %s, naming the request', (_, decision, expected, event) => {
    const ctx = withPolicy('approve');
    const first = policy.check(call(), ctx);
    const requestId = first.kind === 'refuse' ? String(first.refusal.fields.request_id) : '';
    writeFileSync(join(dir, 'decisions', `${requestId}.json`), decision);
    const refusal = { code: expected.code, sentence: expected.sentence.replace('ID', requestId), fields: { request_id: requestId } };
    expect(policy.check(call(), ctx)).toStrictEqual(event === undefined ? { kind: 'refuse', refusal } : { kind: 'refuse', refusal, event: { ...event, requestId } });
  });

  it('fails loudly when the policy holds a class for approval and the session has no approval store', () => {
    expect(() => policy.check(call(), context({ policy: { ...DEFAULT_POLICY, local_change: 'approve' } }))).toThrow(
      'the policy holds local_change for approval, but there is no approval store',
    );
  });

  it('a tool without an effect (classified disabled) is not judged', () => {
    expect(policy.check({ ...call(), tool: { ...write, effect: undefined } }, withPolicy('deny'))).toEqual(PASS);
  });
});

describe('the restricted schema', () => {
  it('is what the agent sees: hidden names gone from properties and required, the rest kept', () => {
    expect(writeJson(write.shown.inputSchema)).toBe(
      '{"type":"object","properties":{"text":{"type":"string","maxLength":5}},"required":["text"],"additionalProperties":false}',
    );
  });
});
