// The HTTP channel over real sockets: a real broker (mcp-proxy) is started, waited for and spoken
// to, directly and through the relay a network enclosure needs; a broker that never listens is
// given up on early and within bound.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnHttpChannel, type HttpChannelOptions } from '../../harness/agent/http-channel.js';
import { freeLoopbackPort } from '../../harness/candidates/free-port.js';
import { packageRoot, serverEntry } from '../../harness/paths.js';
import { scratchFolders } from './scratch.js';

const mcpProxy = join(packageRoot, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs');

const scratch = scratchFolders('http-channel');

const request = (id: number, method: string, params: object = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** mcp-proxy in front of the kit's note server, spoken to over the channel: the lines it answered with. */
async function listThroughMcpProxy(extra: Partial<HttpChannelOptions>): Promise<{ lines: string[]; tail: string }> {
  const dir = scratch();
  const port = await freeLoopbackPort();
  const args = [mcpProxy, '--host', '127.0.0.1', '--port', String(port), '--', process.execPath, serverEntry, 'notes', '--ledger', join(dir, 'ledger')];
  const channel = spawnHttpChannel(process.execPath, args, { url: `http://127.0.0.1:${port}/mcp`, cwd: dir, stderrFile: join(dir, 'stderr'), readyTimeoutMs: 30_000, ...extra });
  const lines: string[] = [];
  channel.onLine((line) => lines.push(line));
  await channel.ready;
  channel.send(request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } }));
  await expect.poll(() => lines.length, { timeout: 15_000 }).toBe(1);
  channel.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  channel.send(request(2, 'tools/list'));
  await expect.poll(() => lines.length, { timeout: 15_000 }).toBe(2);
  await channel.close();
  const status = await channel.exited;
  // Asked to stop, mcp-proxy shuts down on its own: no failure of the channel's is recorded.
  expect(status.error).toBeUndefined();
  return { lines, tail: channel.stderrTail?.(4_096) ?? '' };
}

describe('spawnHttpChannel against a real broker', () => {
  it('initializes, lists through mcp-proxy, and ends the session with a DELETE', async () => {
    const { lines, tail } = await listThroughMcpProxy({});
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'notes' } } });
    expect(JSON.parse(lines[1]!)).toMatchObject({ id: 2, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'search_notes' })]) } });
    expect(tail).toContain('received delete request for session');
  });

  it('does the same through the relay a launch prefix starts', async () => {
    // `env` as the prefix: the broker and the relay both start through it, as through nsenter.
    const { lines } = await listThroughMcpProxy({ launchPrefix: ['/usr/bin/env'] });
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 2]);
  });

  it('gives up at once on a broker that exits before it listens', async () => {
    const dir = scratch();
    const started = Date.now();
    const channel = spawnHttpChannel(process.execPath, ['-e', 'process.exit(3)'], { url: 'http://127.0.0.1:9/mcp', cwd: dir, stderrFile: join(dir, 'stderr'), readyTimeoutMs: 30_000 });
    await channel.ready;
    expect(await channel.exited).toEqual({ code: 3, signal: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    await channel.close();
  });

  it('stops a broker that never listens once its bound has passed, saying why', async () => {
    const dir = scratch();
    const channel = spawnHttpChannel(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { url: 'http://127.0.0.1:9/mcp', cwd: dir, stderrFile: join(dir, 'stderr'), readyTimeoutMs: 500 });
    channel.send(request(1, 'initialize'));
    await channel.ready;
    const status = await channel.exited;
    expect(status.error).toBe('nothing accepted connections at http://127.0.0.1:9/mcp within 500 ms');
    expect(channel.stderrTail?.()).toContain('[gauntlet] nothing accepted connections');
    await channel.close();
  });
});

/**
 * A broker that draws a token as it starts and prints it once it listens, as the MCP Inspector's
 * proxy does, and answers only a request bearing it (401 otherwise), echoing the header it got.
 */
const TOKEN_BROKER = `
const token = require('node:crypto').randomBytes(16).toString('hex');
const server = require('node:http').createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.headers.authorization !== 'Bearer ' + token) return void res.writeHead(401).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const { id } = JSON.parse(body);
    if (id === undefined) return void res.writeHead(202).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: { authorization: req.headers.authorization } }));
  });
});
server.listen(Number(process.argv[1]), '127.0.0.1', () => console.log('Session token: ' + token));
`;
const printedToken = (line: string) => {
  const token = /Session token: (\w+)/.exec(line)?.[1];
  return token === undefined ? undefined : { header: 'Authorization', value: `Bearer ${token}` };
};

describe('spawnHttpChannel with a credential the broker prints', () => {
  it("reads it from the broker's output before the first request and sends it, offering it to the front door's other clients", async () => {
    const dir = scratch();
    const port = await freeLoopbackPort();
    const channel = spawnHttpChannel(process.execPath, ['-e', TOKEN_BROKER, String(port)], { url: `http://127.0.0.1:${port}/mcp`, cwd: dir, stderrFile: join(dir, 'stderr'), readyTimeoutMs: 10_000, printedCredential: printedToken });
    const lines: string[] = [];
    channel.onLine((line) => lines.push(line));
    channel.send(request(1, 'initialize'));
    await channel.ready;
    await expect.poll(() => lines.length, { timeout: 10_000 }).toBe(1);
    const credential = channel.frontDoor?.credential;
    expect(credential?.value).toMatch(/^Bearer [0-9a-f]{32}$/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { authorization: credential!.value } });
    expect(channel.frontDoor?.headers).toEqual({ authorization: credential!.value });
    // The printed line still reaches the broker's log.
    expect(channel.stderrTail?.()).toContain('Session token: ');
    await channel.close();
  });

  it('stops a broker that prints no credential once the ready bound has passed, saying why', async () => {
    const dir = scratch();
    const port = await freeLoopbackPort();
    const silent = TOKEN_BROKER.replace("console.log('Session token: ' + token)", '() => {}');
    const channel = spawnHttpChannel(process.execPath, ['-e', silent, String(port)], { url: `http://127.0.0.1:${port}/mcp`, cwd: dir, stderrFile: join(dir, 'stderr'), readyTimeoutMs: 500, printedCredential: printedToken });
    channel.send(request(1, 'initialize'));
    await channel.ready;
    expect((await channel.exited).error).toBe('the broker printed no credential within 500 ms');
    expect(channel.frontDoor?.credential).toBeUndefined();
    await channel.close();
  });

  it('refuses one it could not hand the relay into an enclosure', () => {
    expect(() => spawnHttpChannel(process.execPath, ['-e', ''], { url: 'http://127.0.0.1:9/mcp', cwd: '/tmp', stderrFile: '/dev/null', launchPrefix: ['/usr/bin/env'], printedCredential: printedToken })).toThrow('cannot reach the relay');
  });
});
