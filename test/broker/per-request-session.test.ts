// MCP 2026-07-28 at the agent's side of the session: no handshake, each request's `_meta` naming
// its revision and capabilities, `server/discover` answered by the broker (discover-pinned), every result with
// `resultType` and the cacheable ones with the broker's hints, the removed methods unknown, log
// messages only for a request that asked a level; and multi round-trip calls, whose input
// requests are judged as the server's requests they replace and whose retries need the broker's
// own handle. Against an in-memory server that answers as the spec's examples do.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { DEFAULT_SERVER_REQUESTS } from '../../src/operator/server-requests.js';
import { ALL_GUARDS, selectGuards } from '../../src/guards/registry.js';
import { decideTools } from '../../src/load/load.js';
import { Session } from '../../src/session/session.js';
import { CONTEXT, config, initialized, pinOf, rule, tool } from './builders.js';
import { FakeRequester } from './fake-requester.js';
import type { RegisteredTool, ServerRequests } from '../../src/types.js';

const listed = [tool('search_notes')];
const registered: readonly RegisteredTool[] = decideTools(listed, { server: 'notes', tools: new Map(listed.map((t) => [t.name, pinOf(t)])) }, config({ search_notes: rule('read_only') }), ALL_GUARDS).registered;

const ELICITING: ServerRequests = { ...DEFAULT_SERVER_REQUESTS, elicitation: { ...DEFAULT_SERVER_REQUESTS.elicitation, allow: true } };

/** A request's `_meta` in 2026-07-28, with these capabilities and extra members. */
const meta = (capabilities = '{}', extra = ''): string => `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":${capabilities}${extra}}`;

function session(answer: ConstructorParameters<typeof FakeRequester>[0] = () => '{"content":[]}', serverRequests: ServerRequests = ELICITING, guards = ALL_GUARDS) {
  const upstream = new FakeRequester(answer);
  const sent: string[] = [];
  const s = new Session({ tools: registered, guards, context: CONTEXT, limits: { ...DEFAULT_LIMITS, callTimeoutMs: 500 }, serverEnv: new Map(), upstream, logging: true, audit: undefined, send: (line) => sent.push(line), serverRequests, instructions: 'Search first.' });
  return { s, upstream, sent };
}

const settle = async (s: Session): Promise<void> => {
  await s.settled();
};

const RECEIPT = '"_meta":{"io.mcp-gauntlet/receipt":{"tool":"search_notes","permission":null,"trust":"untrusted","data_classification":"workspace"}}';
const ELICIT = '{"method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}';

describe('a 2026-07-28 agent', () => {
  it('is served with no initialize: discover is answered by the broker, results carry resultType, listings the broker’s caching hints', async () => {
    const { s, sent, upstream } = session();
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{${meta()}}}`);
    s.handleLine(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{${meta()}}}`);
    s.handleLine(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta()}}}`);
    await settle(s);
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05","2024-10-07"],"capabilities":{"tools":{},"logging":{}},"instructions":"Search first.","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"gauntlet-reference-broker","version":"0.1.0"}},"ttlMs":0,"cacheScope":"private"}}',
      '{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[{"name":"search_notes","description":"search_notes does things","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":false}}],"ttlMs":0,"cacheScope":"private"}}',
      `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[],${RECEIPT}}}`,
    ]);
    // The agent's own declarations are not the broker's to pass on: the call goes as the broker makes it.
    expect(upstream.asked.map((a) => a.params)).toEqual(['{"name":"search_notes","arguments":{}}']);
  });

  it('is answered server/discover from what the broker vetted however often it asks, never by the server asked again; without discover-pinned, by the server', async () => {
    const drifted = () => '{"supportedVersions":["2026-07-28"],"capabilities":{"experimental":{"x":{}}},"instructions":"Always include everything."}';
    const pinned = session(drifted);
    for (const id of [1, 2]) pinned.s.handleLine(`{"jsonrpc":"2.0","id":${id},"method":"server/discover","params":{${meta()}}}`);
    await settle(pinned.s);
    expect(pinned.upstream.asked).toEqual([]);
    expect(pinned.sent.map((line) => JSON.parse(line).result.instructions)).toEqual(['Search first.', 'Search first.']);
    const relayed = session(drifted, ELICITING, selectGuards(['discover-pinned']));
    relayed.s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{${meta()}}}`);
    await settle(relayed.s);
    expect(relayed.upstream.asked.map((a) => a.method)).toEqual(['server/discover']);
    expect(JSON.parse(relayed.sent[0]!).result).toMatchObject({ instructions: 'Always include everything.', capabilities: { experimental: { x: {} } } });
  });

  it('never passes on the resultType or caching hints a server wrote: the broker sets its own, and an agent of 2025-11-25 gets none', async () => {
    const { s, sent } = session(() => '{"resultType":"complete","ttlMs":99999,"cacheScope":"public","content":[]}');
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta()}}}`);
    await settle(s);
    initialized(s, sent);
    s.handleLine('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{}}}');
    await settle(s);
    expect(sent[0]).toBe(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],${RECEIPT}}}`);
    expect(sent.at(-1)).toBe(`{"jsonrpc":"2.0","id":2,"result":{"content":[],${RECEIPT}}}`);
  });

  it('answers a version it does not speak per request with UnsupportedProtocolVersion, the removed methods as unknown, and a request without its capabilities as malformed', () => {
    const { s, sent } = session();
    s.handleLine('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}');
    s.handleLine('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}');
    for (const [id, method] of [[3, 'ping'], [4, 'logging/setLevel'], [5, 'resources/subscribe'], [6, 'initialize']] as const) {
      s.handleLine(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{${meta()}}}`);
    }
    s.handleLine(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{${meta('{}', ',"io.modelcontextprotocol/logLevel":"loud"')}}}`);
    s.handleLine('{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}');
    s.handleLine(`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{${meta('true')}}}`);
    const supported = '["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05","2024-10-07"]';
    expect(sent).toEqual([
      `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25","data":{"supported":${supported},"requested":"2025-11-25"}}}`,
      `{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version: 2099-01-01","data":{"supported":${supported},"requested":"2099-01-01"}}}`,
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: ping"}}',
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found: logging/setLevel"}}',
      '{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found: resources/subscribe"}}',
      '{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"Method not found: initialize"}}',
      '{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: io.modelcontextprotocol/logLevel must be one of debug, info, notice, warning, error, critical, alert, emergency"}}',
      '{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: io.modelcontextprotocol/clientCapabilities is required"}}',
      '{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params: io.modelcontextprotocol/clientCapabilities must be an object"}}',
    ]);
  });

  it('passes a log message on only while a request that asked a level at most its severity is in flight, and forwards that level; no list change', async () => {
    let release: () => void = () => {};
    const upstream = new FakeRequester(() => '{"content":[]}');
    const slow = new Promise<void>((resolve) => (release = resolve));
    const request = upstream.request.bind(upstream);
    upstream.request = async (...args) => {
      await slow;
      return request(...args);
    };
    const sent: string[] = [];
    const s = new Session({ tools: registered, guards: ALL_GUARDS, context: CONTEXT, limits: DEFAULT_LIMITS, serverEnv: new Map(), upstream, logging: true, audit: undefined, send: (line) => sent.push(line) });
    // Until an agent says anything it may be of either revision, and hears what an older one would.
    upstream.serverNotifies('notifications/message', '{"level":"error","data":"unknown agent"}');
    s.handleLine(`{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{${meta()}}}`);
    upstream.serverNotifies('notifications/message', '{"level":"error","data":"before"}');
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta('{}', ',"io.modelcontextprotocol/logLevel":"warning"')}}}`);
    upstream.serverNotifies('notifications/message', '{"level":"info","data":"too low"}');
    upstream.serverNotifies('notifications/message', '{"level":"error","data":"during"}');
    // Heard only on a subscriptions/listen stream, which this agent did not open (agent-listen.test.ts).
    upstream.serverNotifies('notifications/resources/list_changed');
    release();
    await settle(s);
    upstream.serverNotifies('notifications/message', '{"level":"error","data":"after"}');
    expect(sent.filter((line) => line.includes('"method":"notifications/'))).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"unknown agent"}}',
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"during"}}',
    ]);
    expect(upstream.asked[0]!.params).toBe('{"name":"search_notes","arguments":{},"_meta":{"io.modelcontextprotocol/logLevel":"warning"}}');
  });
});

describe('an older server behind a 2026-07-28 agent', () => {
  it('has its own requests refused at once: that agent takes none', async () => {
    const { s, upstream } = session();
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${meta('{"sampling":{}}')}}}`);
    const reply = await upstream.serverRequests('sampling/createMessage', '{"messages":[],"maxTokens":5}');
    expect(reply).toEqual({ ok: false, error: expect.objectContaining({ kind: 'object' }) });
    expect(JSON.stringify(reply)).toContain('-32601');
  });
});

describe('a multi round-trip call', () => {
  /** A server that asks for a name until a retry carries one, and answers with what it got. */
  const asking = (method: string, params: string | undefined) => {
    if (method !== 'tools/call' || params?.includes('inputResponses') !== true) {
      return `{"resultType":"input_required","inputRequests":{"who":${ELICIT},"cwd":{"method":"roots/list"}},"requestState":"server-secret-state"}`;
    }
    return `{"content":[{"type":"text","text":"got it"}]}`;
  };

  it('shows a 2026-07-28 agent the allowed input requests under a handle of the broker’s, and restores the server’s state on the retry', async () => {
    const { s, sent, upstream } = session(asking);
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"x"},${meta('{"elicitation":{"form":{}}}')}}}`);
    await settle(s);
    const first = JSON.parse(sent[0]!) as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } };
    expect(first.result.resultType).toBe('input_required');
    // roots/list is refused (this request declared no roots capability), so the agent never sees it.
    expect(Object.keys(first.result.inputRequests)).toEqual(['who']);
    expect(first.result.requestState).not.toContain('server-secret-state');
    expect(first.result.requestState).toMatch(/^[A-Za-z0-9_-]{43}$/);
    s.handleLine(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"x"},"inputResponses":{"who":{"action":"accept","content":{"name":"Ada"}},"cwd":{"roots":[]}},"requestState":"${first.result.requestState}",${meta('{"elicitation":{"form":{}},"roots":{}}')}}}`);
    await settle(s);
    expect(sent[1]).toBe(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"got it"}],${RECEIPT}}}`);
    // Only the response to what the agent was shown reaches the server, with the server's own state.
    expect(upstream.asked[1]!.params).toBe('{"name":"search_notes","arguments":{"q":"x"},"inputResponses":{"who":{"action":"accept","content":{"name":"Ada"}}},"requestState":"server-secret-state"}');
    // A handle is spent by its use.
    s.handleLine(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"x"},"inputResponses":{},"requestState":"${first.result.requestState}",${meta()}}}`);
    await settle(s);
    expect(sent[2]).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: requestState is not one the broker issued, or it was used or expired"}}');
    expect(upstream.asked).toHaveLength(2);
  });

  it('refuses a retry with a state the broker did not issue, or issued for another call, before the server sees it', async () => {
    const { s, sent, upstream } = session(asking);
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"x"},${meta('{"elicitation":{}}')}}}`);
    await settle(s);
    const handle = (JSON.parse(sent[0]!) as { result: { requestState: string } }).result.requestState;
    s.handleLine(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"x"},"requestState":"server-secret-state",${meta()}}}`);
    s.handleLine(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"other"},"requestState":"${handle}",${meta()}}}`);
    s.handleLine(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_notes","arguments":{"q":"x"},"inputResponses":{"who":{"action":"accept"}},${meta()}}}`);
    await settle(s);
    expect(sent.slice(1)).toEqual([
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: requestState is not one the broker issued, or it was used or expired"}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: requestState was issued for another request"}}',
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: a retry needs the requestState the broker gave for the call"}}',
    ]);
    expect(upstream.asked).toHaveLength(1);
  });

  it('shows no input request the agent declared no capability for, or the operator does not allow', async () => {
    const { s, sent } = session(asking, DEFAULT_SERVER_REQUESTS);
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta('{"elicitation":{}}')}}}`);
    await settle(s);
    const result = (JSON.parse(sent[0]!) as { result: Record<string, unknown> }).result;
    expect(result.inputRequests).toBeUndefined();
    expect(result.resultType).toBe('input_required');
  });

  it('bridges for an agent of 2025-11-25: the allowed input requests are asked of it as the server’s requests, and the broker retries', async () => {
    const { s, sent, upstream } = session(asking);
    s.handleLine('{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}}}}');
    s.handleLine('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{}}}');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent[1]).toBe(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":${ELICIT.slice(ELICIT.indexOf('"params":') + 9, -1)}}`);
    s.handleLine('{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada"}}}');
    await settle(s);
    expect(sent[2]).toBe(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"got it"}],${RECEIPT}}}`);
    expect(upstream.asked[1]!.params).toBe('{"name":"search_notes","arguments":{},"inputResponses":{"who":{"action":"accept","content":{"name":"Ada"}}},"requestState":"server-secret-state"}');
  });

  it('withholds a result after too many rounds, or one that asks for input in a shape the spec does not give', async () => {
    const { s, sent } = session(() => '{"resultType":"input_required","requestState":"again"}');
    s.handleLine('{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}');
    s.handleLine('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{}}}');
    await settle(s);
    expect(sent[1]).toContain('result_withheld');
    expect(sent[1]).toContain('it asked for input more than 8 times');
    const bad = session(() => '{"resultType":"input_required","inputRequests":[]}');
    bad.s.handleLine(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta()}}}`);
    const unknown = session(() => '{"resultType":"partial","content":[]}');
    unknown.s.handleLine(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta()}}}`);
    await Promise.all([settle(bad.s), settle(unknown.s)]);
    expect(bad.sent[0]).toContain('its inputRequests is not an object');
    expect(unknown.sent[0]).toContain('its resultType is not one the broker knows');
  });
});
