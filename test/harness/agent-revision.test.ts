// The agent in each revision, against a stand-in broker on a line channel: what it sends (the
// 2026-07-28 `_meta`, server/discover for initialize), and how it answers an `input_required`
// result (each request for input answered as the scenario's client side answers a server's
// request, the original retried with a new id, the interim lines kept where the judges read).

import { describe, expect, it } from 'vitest';
import { AgentClient, MAX_INPUT_ROUNDS } from '../../harness/agent/client.js';
import type { ClientSide } from '../../harness/scenario/types.js';
import { countByMethod, initiatedIn } from '../../harness/observe/initiated.js';
import { standIn } from './agent-stand-in.js';

const ELICIT = { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: {} } } };
const ROOTS = { method: 'roots/list', params: {} };

describe('AgentClient, 2025-11-25', () => {
  it('sends params as given, opens with initialize, and takes an input_required result as the answer', async () => {
    const { channel, sent } = standIn((message) => (message.method === 'initialize' ? { protocolVersion: '2025-11-25' } : { resultType: 'input_required', inputRequests: { a: ROOTS } }));
    const agent = new AgentClient(channel, 2_000);
    expect((await agent.handshake()).kind).toBe('result');
    const answer = await agent.callTool('t', { x: 1 });
    expect(answer.kind === 'result' && answer.result.resultType).toBe('input_required');
    expect(sent.map((message) => message.method)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(sent[2]!.params).toEqual({ name: 't', arguments: { x: 1 } });
  });
});

describe('AgentClient, 2026-07-28', () => {
  const side: ClientSide = { elicitation: { answer: { action: 'accept', content: { name: 'octocat' } } }, roots: [{ uri: 'file:///work', name: 'work' }] };

  it("opens with server/discover, and every request's _meta says the revision, capabilities, client and log level, the scenario's keys winning", async () => {
    const { channel, sent } = standIn(() => ({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} }));
    const agent = new AgentClient(channel, 2_000, side, '2026-07-28');
    expect(agent.handshakeMethod).toBe('server/discover');
    expect((await agent.handshake()).kind).toBe('result');
    await agent.callTool('t', {}, { meta: { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'error' } });
    expect(sent.map((message) => message.method)).toEqual(['server/discover', 'tools/call']);
    const expected = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, roots: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'mcp-gauntlet-agent', version: '0.1.0' },
      'io.modelcontextprotocol/logLevel': 'debug',
    };
    expect(sent[0]!.params).toEqual({ _meta: expected });
    expect(sent[1]!.params).toEqual({ name: 't', arguments: {}, _meta: { ...expected, progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'error' } });
  });

  it('answers each request for input, retries with a new id, the responses and the state as given, and keeps the interim line', async () => {
    const interim = { resultType: 'input_required', inputRequests: { login: ELICIT, where: ROOTS, draft: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } }, requestState: 'opaque-1' };
    const { channel, sent } = standIn((message) => (message.params?.requestState === undefined ? interim : { resultType: 'complete', content: [{ type: 'text', text: 'done' }] }));
    const agent = new AgentClient(channel, 2_000, side, '2026-07-28');
    const answer = await agent.callTool('t', { x: 1 });
    expect(answer.kind === 'result' && answer.result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(sent.map((message) => message.id)).toEqual([1, 2]);
    const { _meta: _first, ...first } = sent[0]!.params!;
    const { _meta: _retry, ...retry } = sent[1]!.params!;
    // The agent declares no sampling: that request goes unanswered, its key left out.
    expect(retry).toEqual({ ...first, inputResponses: { login: { action: 'accept', content: { name: 'octocat' } }, where: { roots: side.roots } }, requestState: 'opaque-1' });
    expect(agent.unsolicited).toHaveLength(1);
    expect(JSON.parse(agent.unsolicited[0]!)).toEqual({ jsonrpc: '2.0', id: 1, result: interim });
    // Counted as the requests a 2025-11-25 broker would have sent the agent.
    expect(Object.fromEntries(countByMethod(initiatedIn(agent.unsolicited)))).toEqual({ 'elicitation/create': 1, 'roots/list': 1, 'sampling/createMessage': 1 });
  });

  it('sends no requestState back when the result gave none, and no inputResponses when it asked for nothing', async () => {
    const { channel, sent } = standIn((message) => (message.id === 1 ? { resultType: 'input_required', requestState: 's' } : message.id === 2 ? { resultType: 'input_required', inputRequests: { w: ROOTS } } : { resultType: 'complete' }));
    await new AgentClient(channel, 2_000, side, '2026-07-28').request('prompts/get', { name: 'p' });
    expect(sent.map(({ params: { _meta, ...rest } = {} }) => rest)).toEqual([
      { name: 'p' },
      { name: 'p', requestState: 's' },
      { name: 'p', inputResponses: { w: { roots: side.roots } } },
    ]);
  });

  it(`gives up after ${MAX_INPUT_ROUNDS} retries of a broker that keeps asking, every interim line kept`, async () => {
    const { channel, sent } = standIn(() => ({ resultType: 'input_required', inputRequests: { a: ELICIT }, requestState: 'again' }));
    const agent = new AgentClient(channel, 2_000, side, '2026-07-28');
    const answer = await agent.callTool('t', {});
    expect(answer).toMatchObject({ kind: 'malformed', why: `still input_required after ${MAX_INPUT_ROUNDS} retries` });
    expect(sent).toHaveLength(MAX_INPUT_ROUNDS + 1);
    expect(agent.unsolicited).toHaveLength(MAX_INPUT_ROUNDS + 1);
  });

  it('misuses a retry as a call step\'s retry says: a forged state first, other arguments on the retry, the last retry replayed', async () => {
    const interim = { resultType: 'input_required', inputRequests: { login: ELICIT }, requestState: 'issued' };
    const { channel, sent } = standIn((message) => (message.params?.requestState === undefined ? interim : { resultType: 'complete' }));
    const agent = new AgentClient(channel, 2_000, side, '2026-07-28');
    const rest = () => sent.map(({ params: { _meta, ...others } = {} }) => others);
    await expect(agent.callTool('t', { x: 1 }, { retry: { replay: true } })).rejects.toThrow(/no state to replay/);
    await agent.callTool('t', { x: 1 }, { retry: { request_state: 'forged' } });
    expect(rest()).toEqual([{ name: 't', arguments: { x: 1 }, requestState: 'forged' }]);
    await agent.callTool('t', { x: 1 }, { retry: { arguments: { x: 2 } } });
    const accepted = { login: { action: 'accept', content: { name: 'octocat' } } };
    expect(rest().slice(1)).toEqual([{ name: 't', arguments: { x: 1 } }, { name: 't', arguments: { x: 2 }, inputResponses: accepted, requestState: 'issued' }]);
    await agent.callTool('t', { x: 3 }, { retry: { replay: true } });
    expect(rest().slice(3)).toEqual([{ name: 't', arguments: { x: 3 }, inputResponses: accepted, requestState: 'issued' }]);
  });

  it('ends every round within the one bound of the request', async () => {
    const { channel } = standIn((message) => (message.id === 1 ? { resultType: 'input_required', requestState: 's' } : undefined));
    const started = Date.now();
    expect((await new AgentClient(channel, 300, side, '2026-07-28').callTool('t', {})).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
