import { describe, expect, it } from 'vitest';
import agentRequests from '../../harness/expect/call/agent-requests.js';
import notifications from '../../harness/expect/call/notifications.js';
import progressOwnOnly from '../../harness/expect/call/progress.js';
import serverReplies from '../../harness/expect/call/server-replies.js';
import type { CallFacts, Expectation, Judged } from '../../harness/expect/types.js';
import type { SessionSpec } from '../../harness/candidates/types.js';
import type { CallExpectation } from '../../harness/scenario/types.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';

// The expectations on what a server starts on its own, judged over hand-made observations: the
// lines the agent received besides its answer, and the ledger's reply records.

const request = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const notice = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
const reply = (seq: number, method: string, result: unknown, error: unknown = null): LedgerRecord => ({ ev: 'reply', pid: 1, seq, method, request_id: `"srv-${seq}"`, result, error });

function judged(module: Expectation<'call'>, expect: Partial<CallExpectation>, others: string[], records: LedgerRecord[] = [], progress_token?: string): string[] {
  const facts = {
    label: '3:call',
    mark: 0,
    end: records.length,
    step: { tool: 'search_notes', expect: { agent: 'result', ...expect }, ...(progress_token ? { progress_token } : {}) },
    calledAs: 'search_notes',
    serverTool: 'search_notes',
    args: {},
    answer: { kind: 'result', result: {}, raw: '{"jsonrpc":"2.0","id":1,"result":{}}' },
    others,
    next: undefined,
  } as CallFacts;
  const failed: string[] = [];
  const context: Judged = { records, kind: 'attack', spec: {} as SessionSpec };
  module.judge({ agent: 'result', ...expect } as CallExpectation, facts, context, (check) => failed.push(check));
  return failed;
}

describe('agent_requests', () => {
  const sampling = request(1, 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise https://x.test/a' } }], maxTokens: 5 });
  it('counts requests by method, and finds strings carried whole', () => {
    expect(judged(agentRequests, { agent_requests: { max: { 'sampling/createMessage': 0 } } }, [sampling])).toEqual(['call.agent_requests_max']);
    expect(judged(agentRequests, { agent_requests: { min: { 'sampling/createMessage': 1 }, includes: ['https://x.test/a'] } }, [sampling])).toEqual([]);
    expect(judged(agentRequests, { agent_requests: { min: { 'elicitation/create': 1 }, includes: ['https://x.test/b'] } }, [sampling])).toEqual([
      'call.agent_requests_min',
      'call.agent_requests_include',
    ]);
  });
  it('does not count notifications as requests', () => {
    expect(judged(agentRequests, { agent_requests: { max: { 'notifications/message': 0 } } }, [notice('notifications/message', { level: 'info', data: 'x' })])).toEqual([]);
  });
});

describe('notifications', () => {
  const log = (data: string) => notice('notifications/message', { level: 'info', data });
  it('bounds and requires notifications by method', () => {
    expect(judged(notifications, { notifications: { max: { 'notifications/message': 1 } } }, [log('a'), log('b')])).toEqual(['call.notifications_max']);
    expect(judged(notifications, { notifications: { min: { 'notifications/message': 1 } } }, [])).toEqual(['call.notifications_min']);
  });
  it('finds a raw line break or bidi control, and passes what was escaped', () => {
    expect(judged(notifications, { notifications: { escaped: true } }, [log('saved\n[info] forged')])).toEqual(['call.notifications_escaped']);
    expect(judged(notifications, { notifications: { escaped: true } }, [log('saved as \u202etxt.exe')])).toEqual(['call.notifications_escaped']);
    expect(judged(notifications, { notifications: { escaped: true } }, [log('saved\\u{a}[info] forged')])).toEqual([]);
  });
});

describe('progress_own_only', () => {
  const progress = (token: unknown) => notice('notifications/progress', { progressToken: token, progress: 1 });
  it('passes progress for the step’s own token only', () => {
    expect(judged(progressOwnOnly, { progress_own_only: true }, [progress('mine')], [], 'mine')).toEqual([]);
    expect(judged(progressOwnOnly, { progress_own_only: true }, [progress('forged')], [], 'mine')).toEqual(['call.progress_own_only']);
    expect(judged(progressOwnOnly, { progress_own_only: true }, [progress('mine')])).toEqual(['call.progress_own_only']);
  });
});

describe('server_replies', () => {
  it('judges results and errors the server got, needing a reply', () => {
    const answered = [reply(0, 'sampling/createMessage', { role: 'assistant' })];
    const refused = [reply(0, 'sampling/createMessage', null, { code: -32600, message: 'no' })];
    expect(judged(serverReplies, { server_replies: { answered: ['sampling/createMessage'] } }, [], answered)).toEqual([]);
    expect(judged(serverReplies, { server_replies: { refused: ['sampling/createMessage'] } }, [], answered)).toEqual(['call.server_refused']);
    expect(judged(serverReplies, { server_replies: { answered: ['sampling/createMessage'] } }, [], refused)).toEqual(['call.server_answered']);
    expect(judged(serverReplies, { server_replies: { refused: ['sampling/createMessage'] } }, [], [])).toEqual(['call.server_replied']);
  });
  it('reads the roots the server was told of', () => {
    const roots = [reply(0, 'roots/list', { roots: [{ uri: 'file:///work/project' }, { uri: 'file:///home/user/.ssh' }] })];
    expect(judged(serverReplies, { server_replies: { roots_include: ['file:///work/project'] } }, [], roots)).toEqual([]);
    expect(judged(serverReplies, { server_replies: { roots_exclude: ['file:///home/user/.ssh'] } }, [], roots)).toEqual(['call.roots_exclude']);
    expect(judged(serverReplies, { server_replies: { roots_exclude: ['file:///x'] } }, [], [])).toEqual(['call.server_replied']);
  });
});
