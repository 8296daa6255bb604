// The broker in front of a 2026-07-28 server over stdio (a stand-in that follows the spec, in
// fixtures/per-request-server.mjs): server/discover first, then no handshake and every request
// with the broker's own per-request `_meta`; an older server that refuses the probe is initialized
// as before. A multi round-trip call goes through, to an agent of either revision.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Workdir, waitFor } from './e2e-helpers.js';

const STAND_IN = resolve('test/broker/fixtures/per-request-server.mjs');
const META = (capabilities = '{}') => `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":${capabilities}}`;

let work: Workdir;
afterEach(async () => {
  await work.cleanup();
});

/** A workdir whose configuration names the stand-in (or, `legacy`, the stand-in as an older server), with elicitation allowed. */
function standIn(legacy = false): Workdir {
  work = new Workdir();
  const server = { id: 'standin', command: process.execPath, args: [STAND_IN, work.callLog, ...(legacy ? ['legacy'] : [])] };
  const rules = { ask: { effect: 'read_only' }, echo: { effect: 'read_only' }, change: { effect: 'read_only' } };
  writeFileSync(work.config, JSON.stringify({ server, rules, server_requests: { elicitation: { allow: true } } }), { mode: 0o600 });
  return work;
}

/** A loopback port free a moment ago: --listen takes no port 0. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const received = (w: Workdir): any[] => readFileSync(w.callLog, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));

describe('a 2026-07-28 server behind the broker', () => {
  it('is probed with server/discover and spoken to per request, with the capabilities the operator permits and never an initialize', async () => {
    const w = standIn();
    expect((await w.pin()).code).toBe(0);
    const lines = received(w);
    expect(lines.map((line) => line.method)).toEqual(['server/discover', 'tools/list']);
    expect(lines[1].params._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'gauntlet-reference-broker', version: '0.1.0' },
    });
    const broker = w.serve();
    // The server's instructions reach the agent as Load decided them, from its discover answer.
    const discovered = JSON.parse(await broker.request(1, 'server/discover', `{${META()}}`));
    expect(discovered.result.instructions).toBe('Ask first.');
    const echoed = JSON.parse(await broker.request(2, 'tools/call', `{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"agent","version":"9"}}}`));
    expect(JSON.parse(echoed.result.content[0].text)).toEqual(lines[1].params._meta);
  });

  it('subscribes to its list changes, so a change it tells of during the session has the tools decided again', async () => {
    const w = standIn();
    expect((await w.pin()).code).toBe(0);
    const broker = w.serve();
    await broker.request(1, 'tools/call', `{"name":"change","arguments":{},${META()}}`);
    await waitFor(() => received(w).filter((line) => line.method === 'tools/list').length === 3, 'the broker to list the tools again');
    const methods = received(w).map((line) => line.method);
    // pin's discover and listing, then serve's, its subscription, the call, and the listing again.
    expect(methods).toEqual(['server/discover', 'tools/list', 'server/discover', 'tools/list', 'subscriptions/listen', 'tools/call', 'tools/list']);
    expect(received(w)[4].params.notifications).toEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  });

  it('carries a multi round-trip call for a 2026-07-28 agent: the broker’s handle out, the server’s state back', async () => {
    const w = standIn();
    expect((await w.pin()).code).toBe(0);
    const broker = w.serve();
    const first = JSON.parse(await broker.request(1, 'tools/call', `{"name":"ask","arguments":{},${META('{"elicitation":{}}')}}`));
    expect(first.result.resultType).toBe('input_required');
    expect(first.result.inputRequests.who.method).toBe('elicitation/create');
    expect(first.result.requestState).not.toBe('opaque-server-state');
    const retry = JSON.parse(await broker.request(2, 'tools/call', `{"name":"ask","arguments":{},"inputResponses":{"who":{"action":"accept","content":{"name":"Ada"}}},"requestState":"${first.result.requestState}",${META('{"elicitation":{}}')}}`));
    expect(retry.result.resultType).toBe('complete');
    expect(retry.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    const forged = JSON.parse(await broker.request(3, 'tools/call', `{"name":"ask","arguments":{},"inputResponses":{"who":{"action":"accept","content":{"name":"Eve"}}},"requestState":"opaque-server-state",${META('{"elicitation":{}}')}}`));
    expect(forged.error.code).toBe(-32602);
    const calls = received(w).filter((line) => line.method === 'tools/call');
    expect(calls.map((call) => call.params.requestState)).toEqual([undefined, 'opaque-server-state']);
  });

  it('bridges a multi round-trip call for a 2025-11-25 agent, asking it as a server’s elicitation', async () => {
    const w = standIn();
    expect((await w.pin()).code).toBe(0);
    const broker = w.serve();
    await broker.request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } });
    broker.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const answered = broker.request('call', 'tools/call', '{"name":"ask","arguments":{}}');
    await waitFor(() => broker.lines.some((line) => line.includes('elicitation/create')), 'the broker to ask the agent');
    const asked = JSON.parse(broker.lines.find((line) => line.includes('elicitation/create'))!);
    expect(asked.params.message).toBe('Your name?');
    broker.send(`{"jsonrpc":"2.0","id":${asked.id},"result":{"action":"accept","content":{"name":"Ada"}}}`);
    const final = JSON.parse(await answered);
    expect(final.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(final.result.resultType).toBeUndefined();
    expect(received(w).filter((line) => line.method === 'tools/call')[1].params).toMatchObject({ inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: 'opaque-server-state' });
  });

  it('carries a multi round-trip call across two POSTs of a 2026-07-28 client at the front door', async () => {
    const w = standIn();
    expect((await w.pin()).code).toBe(0);
    const broker = w.serve('--listen', `127.0.0.1:${await freePort()}`);
    let stderr = '';
    broker.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(() => / at (http:\/\/\S+)/.test(stderr), 'the front door to listen');
    const url = / at (http:\/\/\S+)/.exec(stderr)![1]!;
    const post = async (body: object): Promise<any> => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask' },
        body: JSON.stringify(body),
      });
      return response.json();
    };
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const first = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta } });
    expect(first.result.resultType).toBe('input_required');
    const retry = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {}, inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.result.requestState, _meta } });
    expect(retry.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('initializes an older server that refuses the probe, as before', async () => {
    const w = standIn(true);
    expect((await w.pin()).code).toBe(0);
    expect(received(w).map((line) => line.method)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    expect(received(w)[3].params._meta).toBeUndefined();
  });
});
