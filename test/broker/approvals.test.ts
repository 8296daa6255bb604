// Approvals bound to the exact call, against a real state directory: the operator's decision
// files are the only way in.

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore, type ApprovalCall } from '../../src/session/approvals.js';
import { NOW, json } from './builders.js';

let dir = '';
let store: ApprovalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'broker-approvals-'));
  store = new ApprovalStore(dir);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const call = (args = '{"text":"hi","n":1.0}', agent: string | null = 'writer'): ApprovalCall => ({
  tool: 'write_note',
  name: 'save_note',
  args: json(args),
  forwarded: json(args.replace('}', ',"folder":"inbox"}')),
  agent: agent ?? undefined,
});
const decide = (requestId: string, text: string) => writeFileSync(join(dir, 'decisions', `${requestId}.json`), text);
const requested = (c: ApprovalCall = call()): string => {
  const state = store.consult(c, NOW);
  if (state.kind !== 'pending') throw new Error(`expected a pending request, got ${state.kind}`);
  return state.requestId;
};

describe('ApprovalStore', () => {
  it('files a request naming the tool both ways, the canonical arguments, what would be sent, and the agent', () => {
    const state = store.consult(call(), NOW);
    expect(state).toEqual({ kind: 'pending', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), isNew: true });
    const request = JSON.parse(readFileSync(join(dir, 'approvals', `${state.requestId}.json`), 'utf8'));
    expect(request).toEqual({
      request_id: state.requestId,
      tool: 'write_note',
      name: 'save_note',
      arguments: '{"n":1,"text":"hi"}',
      forwarded: '{"text":"hi","n":1.0,"folder":"inbox"}',
      agent: 'writer',
    });
  });

  it('answers an identical call while pending with the same request, canonically compared', () => {
    const id = requested();
    expect(store.consult(call('{ "n" : 10e-1 , "text":"hi" }'), NOW)).toEqual({ kind: 'pending', requestId: id, isNew: false });
  });

  it('runs the approved identical call once; a later identical call needs a new request', () => {
    const id = requested();
    decide(id, '{"decision":"approve"}');
    expect(store.consult(call(), NOW)).toEqual({ kind: 'granted', requestId: id });
    const next = store.consult(call(), NOW);
    expect(next).toMatchObject({ kind: 'pending', isNew: true });
    expect(next.requestId).not.toBe(id);
    expect(existsSync(join(dir, 'closed', `${id}.json`))).toBe(true);
    expect(readdirSync(join(dir, 'approvals'))).toEqual([`${next.requestId}.json`]);
  });

  it('a call with other arguments, or from another agent, needs its own approval', () => {
    const id = requested();
    decide(id, '{"decision":"approve"}');
    expect(store.consult(call('{"text":"other","n":1}'), NOW)).toMatchObject({ kind: 'pending', isNew: true });
    expect(store.consult(call(undefined, 'planner'), NOW)).toMatchObject({ kind: 'pending', isNew: true });
    expect(store.consult(call(undefined, null), NOW)).toMatchObject({ kind: 'pending', isNew: true });
    expect(store.consult(call(), NOW)).toEqual({ kind: 'granted', requestId: id });
  });

  it('a rejection is reported once, and the call never runs under it', () => {
    const id = requested();
    decide(id, '{"decision":"reject"}');
    expect(store.consult(call(), NOW)).toEqual({ kind: 'rejected', requestId: id });
    expect(store.consult(call(), NOW)).toMatchObject({ kind: 'pending', isNew: true });
  });

  it('an approval expiring at or before now is expired; one after now is live', () => {
    const at = new Date(NOW).toISOString();
    const expired = requested();
    decide(expired, `{"decision":"approve","expires_at":"${at}"}`);
    expect(store.consult(call(), NOW)).toEqual({ kind: 'expired', requestId: expired });
    const live = requested();
    decide(live, '{"decision":"approve","expires_at":"2030-01-01T01:00:00.001+01:00"}');
    expect(store.consult(call(), NOW)).toEqual({ kind: 'granted', requestId: live });
  });

  it('treats a malformed, oversized or unknown decision as no decision', () => {
    const id = requested();
    for (const text of [
      '{"decision":"approve",}',
      '{"decision":"approve","decision":"reject"}',
      '{"decision":"yes"}',
      '{"decision":"approve","by":"agent"}',
      '{"decision":"approve","expires_at":"tomorrow"}',
      `{"decision":"approve","pad":"${'x'.repeat(5000)}"}`,
      '',
    ]) {
      decide(id, text);
      expect(store.consult(call(), NOW)).toEqual({ kind: 'pending', requestId: id, isNew: false });
    }
  });

  it('keeps requests across a restart, and lets two stores spend one approval only once', () => {
    const id = requested();
    decide(id, '{"decision":"approve"}');
    const restarted = new ApprovalStore(dir);
    expect(restarted.consult(call(), NOW)).toEqual({ kind: 'granted', requestId: id });
    expect(store.consult(call(), NOW)).toMatchObject({ kind: 'pending', isNew: true });
  });
});
