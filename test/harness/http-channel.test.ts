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
