// Real software, not the kit: the SDK's own McpServer behind its StreamableHTTPServerTransport,
// which by default answers every POST with an event stream (text/event-stream), on 127.0.0.1.
// The compiled broker pins its tools and serves them: the agent lists them as pinned and calls
// them, and a log line the server sends on a call's stream before the answer reaches the agent
// through the broker's notice guards, ahead of the result. A request the server sends outside any
// call (on the stream the broker opens with a GET once initialized) reaches the agent through the
// relay, and the agent's answer gets back to the server.

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { PRIVATE_ORIGIN_OPT_IN } from '../../src/guards/address.js';
import { Workdir, waitFor, type BrokerProcess } from './e2e-helpers.js';

/** One McpServer per session, as the SDK's own stateful example keeps them. */
function notesServer(): McpServer {
  const mcp = new McpServer({ name: 'sdk-notes', version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('count_notes', { description: 'Count the notes.', annotations: { readOnlyHint: true } }, async (extra) => {
    // Sent on this call's own stream, before its answer.
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', logger: 'notes', data: 'counting the notes' } });
    return { content: [{ type: 'text', text: '3 notes' }] };
  });
  // Asks the agent for its roots outside this call: the SDK sends a request with no related
  // request on the session's GET stream, and drops it when no GET stream is open.
  mcp.registerTool('ask_roots', { description: 'Ask for the roots later.', annotations: { readOnlyHint: true } }, () => {
    void mcp.server.listRoots().then(({ roots }) => rootsHeard.push(roots.map(({ uri }) => uri)), () => undefined);
    return { content: [{ type: 'text', text: 'asking' }] };
  });
  mcp.registerTool('newest_note', { description: 'The newest note.', annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'Buy milk' }] }));
  return mcp;
}

/** Every roots/list answer the server received, by URI. */
const rootsHeard: string[][] = [];
let http: Server | undefined;
let work: Workdir | undefined;
const transports = new Map<string, StreamableHTTPServerTransport>();

afterEach(async () => {
  await work?.cleanup();
  await Promise.all([...transports.values()].map((transport) => transport.close()));
  transports.clear();
  http?.closeAllConnections();
  await new Promise((resolve) => (http === undefined ? resolve(undefined) : http.close(resolve)));
});

async function sdkServer(): Promise<URL> {
  http = createServer((request, response) => {
    const session = request.headers['mcp-session-id'];
    let transport = typeof session === 'string' ? transports.get(session) : undefined;
    if (transport === undefined) {
      // A request without a known session starts one (the SDK rejects anything but initialize).
      const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void transports.set(id, fresh) });
      transport = fresh;
      void notesServer().connect(fresh);
    }
    void transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return new URL(`http://127.0.0.1:${address.port}/mcp`);
}

/** The compiled broker, its tools pinned under `config` and served; not yet initialized. */
async function pinnedAndServed(config: object, url: URL): Promise<BrokerProcess> {
  work = new Workdir();
  writeFileSync(work.config, JSON.stringify(config), { mode: 0o600 });
  // The listener is on loopback: the operator lets the broker dial exactly its origin.
  const env = { ...process.env, [PRIVATE_ORIGIN_OPT_IN]: url.origin };
  const pin = work.start(['pin', '--config', work.config, '--out', work.manifest], env);
  pin.closeInput();
  const pinned = await pin.exit();
  expect(pinned.code, pinned.stderr).toBe(0);
  return work.start(['serve', '--config', work.config, '--manifest', work.manifest, '--report', work.report, '--state-dir', work.path('state')], env);
}

describe("the reference broker in front of the SDK's own Streamable HTTP server", () => {
  it('pins and serves its tools, though every answer is an event stream, and relays a log line sent before an answer', async () => {
    const url = await sdkServer();
    // What the broker meets: the server answers a POST with a stream, not a JSON body.
    const direct = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(direct.headers.get('content-type')).toBe('text/event-stream');
    await direct.body?.cancel();
    const rules = { count_notes: { effect: 'read_only' }, newest_note: { effect: 'read_only' } };
    const broker = await pinnedAndServed({ server: { id: 'notes', url: url.href }, rules }, url);
    await broker.initialize();
    const tools = JSON.parse(await broker.request(1, 'tools/list')).result.tools as Array<{ name: string; description: string }>;
    expect(tools.map(({ name, description }) => [name, description])).toEqual([
      ['count_notes', 'Count the notes.'],
      ['newest_note', 'The newest note.'],
    ]);

    expect(JSON.parse(await broker.call(2, 'newest_note')).result.content).toEqual([{ type: 'text', text: 'Buy milk' }]);
    const counted = await broker.call(3, 'count_notes');
    expect(JSON.parse(counted).result.content).toEqual([{ type: 'text', text: '3 notes' }]);
    await waitFor(() => broker.lines.some((line) => line.includes('notifications/message')), 'the log line');
    const log = broker.lines.findIndex((line) => line.includes('notifications/message'));
    expect(JSON.parse(broker.lines[log]!).params).toMatchObject({ level: 'info', data: 'counting the notes' });
    expect(log).toBeLessThan(broker.lines.indexOf(counted));

  });

  it('opens the stream outside any call once initialized: a roots/list sent on it reaches the agent, and its answer the server', async () => {
    const url = await sdkServer();
    const rules = { count_notes: { effect: 'read_only' }, newest_note: { effect: 'read_only' }, ask_roots: { effect: 'read_only' } };
    const broker = await pinnedAndServed({ server: { id: 'notes', url: url.href }, rules, server_requests: { roots: ['file:///notes/'] } }, url);
    await broker.request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 't', version: '1' } });
    broker.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(JSON.parse(await broker.call(1, 'ask_roots')).result.content).toEqual([{ type: 'text', text: 'asking' }]);
    const asked = () => broker.lines.map((line) => JSON.parse(line) as { id?: number; method?: string }).find(({ method }) => method === 'roots/list');
    await waitFor(() => asked() !== undefined, 'the roots/list the server sent outside any call');
    broker.send(JSON.stringify({ jsonrpc: '2.0', id: asked()!.id, result: { roots: [{ uri: 'file:///notes/', name: 'notes' }, { uri: 'file:///private/' }] } }));
    // The operator's roots guard passes only the permitted root.
    await waitFor(() => rootsHeard.length > 0, "the server's hearing of the agent's roots");
    expect(rootsHeard).toEqual([['file:///notes/']]);
  });
});
