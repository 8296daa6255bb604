// End to end, with the official SDK on both sides: a server that offers `summarise` only to a
// client declaring sampling is pinned and served with it when the operator permits sampling, and
// the agent's own SDK client calls it and answers its sampling request through the broker; when
// the operator does not permit sampling the server is never told of it and the tool is absent.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, within } from './e2e-helpers.js';

const SERVER = resolve('test/broker/fixtures/sampling-gated-server.mjs');
const WAIT_MS = 15_000;
const dirs: string[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Pins the server under `operator`'s configuration; the manifest as written. */
function pinned(rules: Record<string, unknown>, serverRequests: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-caps-'));
  dirs.push(dir);
  const config = join(dir, 'config.json');
  const manifest = join(dir, 'manifest.json');
  writeFileSync(config, JSON.stringify({ server: { id: 'gated', command: process.execPath, args: [SERVER] }, rules, server_requests: serverRequests }));
  const pin = spawnSync(process.execPath, [CLI, 'pin', '--config', config, '--out', manifest], { encoding: 'utf8', timeout: WAIT_MS });
  expect(pin.status, pin.stderr).toBe(0);
  return { config, manifest, written: JSON.parse(readFileSync(manifest, 'utf8')) };
}

/** The agent: the SDK's own client, declaring sampling or not, served by the broker on stdio. */
async function agent({ config, manifest }: { config: string; manifest: string }, declaresSampling: boolean) {
  const client = new Client({ name: 'agent', version: '1.0.0' }, { capabilities: declaresSampling ? { sampling: {} } : {} });
  const sampled: string[] = [];
  if (declaresSampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      sampled.push(JSON.stringify(request.params.messages));
      return { role: 'assistant', content: { type: 'text', text: 'milk and eggs' }, model: 'test-model' };
    });
  }
  clients.push(client);
  await within(client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config, '--manifest', manifest], stderr: 'ignore' })), WAIT_MS, 'the broker to serve');
  const tools = (await within(client.listTools(), WAIT_MS, 'tools/list')).tools.map((tool) => tool.name);
  return { client, sampled, tools };
}

const BOTH = { lookup: { effect: 'read_only' }, summarise: { effect: 'read_only' } };

describe('client capabilities declared to a real SDK server', () => {
  it('pins and serves the sampling-only tool when the operator permits sampling, and the agent answers its sampling request', async () => {
    const setup = pinned(BOTH, { sampling: { allow: true } });
    expect(setup.written.client_capabilities).toEqual({ sampling: {} });
    expect(Object.keys(setup.written.tools)).toEqual(['lookup', 'summarise']);
    const { client, sampled, tools } = await agent(setup, true);
    expect(tools).toEqual(['lookup', 'summarise']);
    const result = await within(client.callTool({ name: 'summarise', arguments: {} }), WAIT_MS, 'the call');
    expect(result.content).toEqual([{ type: 'text', text: 'summary: milk and eggs' }]);
    expect(sampled).toEqual(['[{"role":"user","content":{"type":"text","text":"Summarise the note."}}]']);
  }, 30_000);

  it('never tells the server of sampling the operator does not permit: the tool is absent, from the pin and the session', async () => {
    const setup = pinned({ lookup: { effect: 'read_only' } }, {});
    expect(setup.written.client_capabilities).toEqual({});
    expect(Object.keys(setup.written.tools)).toEqual(['lookup']);
    const { tools } = await agent(setup, true);
    expect(tools).toEqual(['lookup']);
  }, 30_000);

  it('serves what was pinned to an agent that declares less, and refuses the server the sampling request the agent cannot answer', async () => {
    const setup = pinned(BOTH, { sampling: { allow: true } });
    const { client, tools } = await agent(setup, false);
    // Listed under what was pinned: no drift, the pinned tool served.
    expect(tools).toEqual(['lookup', 'summarise']);
    // The server's request failed at the broker, so its tool failed with that error; the agent was never asked.
    await expect(within(client.callTool({ name: 'summarise', arguments: {} }), WAIT_MS, 'the call')).rejects.toThrow('the agent offers no capability for sampling/createMessage');
  }, 30_000);
});
