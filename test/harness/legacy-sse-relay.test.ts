// The legacy HTTP+SSE relay writes each `message` event's data as one line; one over its 16 MiB
// cap is written as far as the cap before the relay fails, because the broker sent the agent that
// much and the harness judges it (a scenario's byte bound), rather than losing it as a channel error.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnChannel } from '../../harness/candidates/child.js';
import { legacySseRelayEntry } from '../../harness/paths.js';
import { scratchFolders } from './scratch.js';

const scratch = scratchFolders('legacy-sse-relay');
const CAP = 16 * 1024 * 1024;
let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/** Serves an event stream on loopback: the endpoint event, then `events` as they are given. */
async function streamOf(events: string[]): Promise<string> {
  server = createServer((request, response) => {
    if (request.method !== 'GET') {
      response.writeHead(202).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('event: endpoint\ndata: /messages\n\n');
    for (const event of events) response.write(event);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/sse`;
}

/** Runs the relay against `url` until it exits: its lines and exit code. */
async function relay(url: string): Promise<{ lines: string[]; code: number | null }> {
  const dir = scratch();
  const channel = spawnChannel(process.execPath, [legacySseRelayEntry, url, '5000'], { cwd: dir, stderrFile: join(dir, 'stderr') });
  const lines: string[] = [];
  channel.onLine((line) => lines.push(line));
  const status = await channel.exited;
  await channel.close();
  return { lines, code: status.code };
}

describe('legacy SSE relay', () => {
  it('writes what a message over the cap carried up to the cap, then fails', async () => {
    const whole = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message"}\n\n';
    const url = await streamOf([whole, `event: message\ndata: ${'z'.repeat(CAP + 1024 * 1024)}\n\n`]);
    const { lines, code } = await relay(url);
    expect(code).toBe(1);
    expect(lines[0]).toBe('{"jsonrpc":"2.0","method":"notifications/message"}');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.length).toBeGreaterThan(CAP - 64 * 1024);
    expect(lines[1]!.length).toBeLessThanOrEqual(CAP);
    expect(/^z+$/.test(lines[1]!)).toBe(true);
  }, 30_000);
});
