// The relay of what a server starts on its own (src/session/relay.ts), with stand-in guards so
// the relay itself is what is shown: what the agent declared, read from its initialize; each
// server request refused without the capability, with params that are not an object, or by a
// guard, and otherwise sent under the broker's own id and answered as the reply guards leave it;
// an answer matched only by that id; the agent's silence bounded; notifications forwarded only of
// the known methods, as the guards leave them; and progress mapped between the two tokens.
// server-initiated.test.ts shows the real guards in a whole session.

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationGuard, ServerReplyGuard, ServerRequestGuard } from '../../src/guards/types.js';
import { plain } from '../../src/json/tree.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { DEFAULT_SERVER_REQUESTS } from '../../src/operator/server-requests.js';
import { Relay, type InitiatedGuards } from '../../src/session/relay.js';
import { replyText } from './fake-requester.js';

const ALL_CAPABILITIES = '{"capabilities":{"sampling":{},"elicitation":{},"roots":{}}}';

function relay(guards: Partial<InitiatedGuards> = {}, declared = ALL_CAPABILITIES) {
  const sent: string[] = [];
  const r = new Relay({
    guards: { serverRequest: [], serverReply: [], notification: [], ...guards },
    policy: DEFAULT_SERVER_REQUESTS,
    serverEnv: new Map(),
    send: (line) => sent.push(line),
    timeoutMs: 500,
  });
  r.learnClient(readJson(declared));
  return { relay: r, sent };
}
const params = (text: string) => readJson(text);

afterEach(() => {
  vi.useRealTimers();
});

describe('what the agent declared', () => {
  /** Which of the three requests the relay would send to an agent that declared `capabilities`. */
  const sendable = async (capabilities: string) => {
    const { relay: r, sent } = relay({}, `{"capabilities":${capabilities}}`);
    const methods = ['sampling/createMessage', 'elicitation/create', 'roots/list'];
    const answers = await Promise.all(methods.map((method) => Promise.race([r.request(method, undefined), Promise.resolve('sent' as const)])));
    return methods.filter((_, i) => answers[i] === 'sent' && sent.some((line) => line.includes(`"method":"${methods[i]}"`)));
  };

  it.each([
    ['{}', []],
    ['{"sampling":{}}', ['sampling/createMessage']],
    ['{"sampling":true}', []],
    ['{"elicitation":{}}', ['elicitation/create']],
    ['{"elicitation":{"form":{}}}', ['elicitation/create']],
    ['{"elicitation":{"url":{}}}', ['elicitation/create']],
    ['{"roots":{"listChanged":true}}', ['roots/list']],
    ['{"roots":null}', []],
    ['[]', []],
  ])('with capabilities %s sends the server only %j', async (capabilities, expected) => {
    expect(await sendable(capabilities)).toEqual(expected);
  });

  it('reads the elicitation modes and sampling tools into what the guards are told', () => {
    const told: unknown[] = [];
    const spy: ServerRequestGuard = { name: 'spy', methods: ['elicitation/create', 'sampling/createMessage'], check: (request, context) => (told.push(context.client), { kind: 'refuse', reason: 'seen' }) };
    for (const capabilities of ['{"elicitation":{}}', '{"elicitation":{"url":{}}}', '{"elicitation":{"form":{},"url":{}}}', '{"sampling":{"tools":{}}}', '{"sampling":{"tools":true}}']) {
      const { relay: r } = relay({ serverRequest: [spy] }, `{"capabilities":${capabilities}}`);
      void r.request(capabilities.includes('sampling') ? 'sampling/createMessage' : 'elicitation/create', undefined);
    }
    expect(told).toEqual([
      { sampling: false, samplingTools: false, elicitationForm: true, elicitationUrl: false, roots: false },
      { sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: true, roots: false },
      { sampling: false, samplingTools: false, elicitationForm: true, elicitationUrl: true, roots: false },
      { sampling: true, samplingTools: true, elicitationForm: false, elicitationUrl: false, roots: false },
      { sampling: true, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: false },
    ]);
  });

  it('declares nothing for an initialize without params or capabilities', async () => {
    for (const declared of ['{}', '[]', '{"capabilities":"all"}']) {
      const { relay: r, sent } = relay({}, declared);
      expect(replyText(await r.request('roots/list', undefined))).toEqual({ ok: false, error: '{"code":-32601,"message":"the agent offers no capability for roots/list"}' });
      expect(sent).toEqual([]);
    }
  });
});

describe("a server's request", () => {
  it('refuses a method it does not relay, and params that are not an object, sending the agent nothing', async () => {
    const { relay: r, sent } = relay();
    expect(replyText(await r.request('tools/call', undefined))).toEqual({ ok: false, error: '{"code":-32601,"message":"Method not found: tools/call"}' });
    expect(replyText(await r.request('roots/list', params('[1]')))).toEqual({ ok: false, error: '{"code":-32602,"message":"Invalid params: params must be an object"}' });
    expect(sent).toEqual([]);
  });

  it('sends it under ids of the broker\u2019s own, params as the guards leave them, and answers the server as the reply guards leave the answer', async () => {
    const tagged: ServerRequestGuard = { name: 'tags', methods: ['sampling/createMessage'], check: (request) => ({ kind: 'pass', params: readJson(`{"tagged":${writeJson(request.params)}}`) as never }) };
    const other: ServerRequestGuard = { name: 'elsewhere', methods: ['roots/list'], check: () => ({ kind: 'refuse', reason: 'never asked' }) };
    const wrap: ServerReplyGuard = { name: 'wraps', methods: ['sampling/createMessage'], reshape: (result) => plain({ wrapped: writeJson(result) }) };
    const { relay: r, sent } = relay({ serverRequest: [tagged, other], serverReply: [wrap] });
    const first = r.request('sampling/createMessage', params('{"maxTokens":5}'));
    const second = r.request('sampling/createMessage', undefined);
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"tagged":{"maxTokens":5}}}',
      '{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"tagged":{}}}',
    ]);
    // Only the number literal the broker wrote answers its request.
    expect(r.answered(plain('2'), { ok: true, result: plain({}) })).toBe(false);
    expect(r.answered(readJson('2.0'), { ok: true, result: plain({}) })).toBe(false);
    expect(r.answered(readJson('3'), { ok: true, result: plain({}) })).toBe(false);
    expect(r.answered(readJson('2'), { ok: false, error: plain({ code: -1, message: 'declined' }) as never })).toBe(true);
    expect(r.answered(readJson('2'), { ok: true, result: plain({}) })).toBe(false);
    expect(r.answered(readJson('1'), { ok: true, result: plain({ text: 'hi' }) })).toBe(true);
    expect(replyText(await first)).toEqual({ ok: true, result: '{"wrapped":"{\\"text\\":\\"hi\\"}"}' });
    expect(replyText(await second)).toEqual({ ok: false, error: '{"code":-1,"message":"declined"}' });
  });

  it('sends no params when the server gave none and the guards added none', async () => {
    const { relay: r, sent } = relay();
    void r.request('roots/list', undefined);
    void r.request('roots/list', params('{}'));
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":1,"method":"roots/list"}', '{"jsonrpc":"2.0","id":2,"method":"roots/list","params":{}}']);
  });

  it('refuses what a guard refuses, naming it, and counts each method\u2019s requests for the guards', async () => {
    const counts: number[] = [];
    const bounded: ServerRequestGuard = { name: 'bounded', methods: ['roots/list'], check: (request, context) => (counts.push(context.count), context.count > 2 ? { kind: 'refuse', reason: 'too many' } : { kind: 'pass', params: request.params }) };
    const { relay: r, sent } = relay({ serverRequest: [bounded] });
    void r.request('roots/list', undefined);
    void r.request('roots/list', undefined);
    expect(replyText(await r.request('roots/list', undefined))).toEqual({ ok: false, error: '{"code":-32600,"message":"refused by the broker (bounded): too many"}' });
    expect(counts).toEqual([1, 2, 3]);
    expect(sent).toHaveLength(2);
  });

  it('answers the server that the agent did not answer in time', async () => {
    vi.useFakeTimers();
    const { relay: r } = relay();
    const asked = r.request('roots/list', undefined);
    vi.advanceTimersByTime(500);
    expect(replyText(await asked)).toEqual({ ok: false, error: '{"code":-32000,"message":"the agent did not answer roots/list within 500 ms"}' });
    expect(r.answered(readJson('1'), { ok: true, result: plain({}) })).toBe(false);
  });
});

describe("a server's notification", () => {
  it('forwards only the known methods with object params, as the guards leave them, and drops what a guard drops', () => {
    const marks: NotificationGuard = { name: 'marks', methods: ['notifications/message'], check: (notice) => ({ kind: 'forward', params: readJson(`{"marked":${writeJson(notice.params)}}`) as never }) };
    const drops: NotificationGuard = { name: 'drops', methods: ['notifications/resources/list_changed'], check: () => ({ kind: 'drop' }) };
    const { relay: r, sent } = relay({ notification: [marks, drops] });
    r.notification('notifications/message', params('{"level":"info","data":"x"}'));
    r.notification('notifications/prompts/list_changed', undefined);
    r.notification('notifications/resources/list_changed', undefined);
    r.notification('notifications/tools/list_changed', undefined);
    r.notification('notifications/cancelled', params('{"requestId":1}'));
    r.notification('notifications/message', params('[1]'));
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"marked":{"level":"info","data":"x"}}}',
      '{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}',
    ]);
  });

  it('forwards progress for a token it issued under the agent\u2019s own token, and tells the guards whether the token is its own', () => {
    const own: boolean[] = [];
    const spy: NotificationGuard = { name: 'spy', methods: ['notifications/progress'], check: (notice, context) => (own.push(context.ownProgress), { kind: 'forward', params: notice.params }) };
    const { relay: r, sent } = relay({ notification: [spy] });
    const first = r.issueProgress(plain('agent-token'));
    const second = r.issueProgress(readJson('42'));
    const [firstToken, secondToken] = [writeJson(first.token), writeJson(second.token)];
    // Random, so two sessions sharing a server never issue the same token (fdr.concurrent-calls-isolated).
    expect(firstToken).toMatch(/^"progress-[A-Za-z0-9_-]{22}"$/);
    expect(secondToken).not.toBe(firstToken);
    expect(writeJson(relay({}).relay.issueProgress(plain('agent-token')).token)).not.toBe(firstToken);
    r.notification('notifications/progress', params(`{"progressToken":${firstToken},"progress":1}`));
    r.notification('notifications/progress', params(`{"progressToken":${secondToken},"progress":2}`));
    r.notification('notifications/progress', params('{"progressToken":"agent-token","progress":3}'));
    r.notification('notifications/progress', params('{"progressToken":"progress-1","progress":4}'));
    first.retire();
    r.notification('notifications/progress', params(`{"progressToken":${firstToken},"progress":5}`));
    expect(own).toEqual([true, true, false, false, false]);
    expect(sent.slice(0, 2)).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"agent-token","progress":1}}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":42,"progress":2}}',
    ]);
  });
});
