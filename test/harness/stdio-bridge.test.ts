// The adapters' bridge from a command server to Streamable HTTP (harness/candidates/brokers/stdio-bridge.ts,
// bridged.ts): declared as the adapter's, so it must change nothing the broker could be credited with.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBridge } from '../../harness/candidates/brokers/bridged.js';
import type { SessionSpec } from '../../harness/candidates/types.js';
import { scratchFolders } from './scratch.js';

/**
 * A server that, for each line it reads, writes a log notification spaced oddly, a line that is
 * not JSON, a request of its own, and then its answer quoting the line it read, keys out of order:
 * what a broker's relay could tidy up, and a bridge must not.
 */
const SERVER = `
const readline = require('node:readline');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  process.stdout.write('{"jsonrpc":"2.0",  "method":"notifications/message","params":{"level":"info","data":"\\\\u00e9t\\u00e9"}}\\n');
  process.stdout.write('not json at all <script>\\n');
  process.stdout.write('{"method":"sampling/createMessage","jsonrpc":"2.0","id":"s1","params":{}}\\n');
  process.stdout.write(JSON.stringify({ result: { read: line, pid: process.pid }, id, jsonrpc: '2.0' }) + '\\n');
});
`;

/** The data of each event of an event stream, in order. */
const events = (body: string): string[] => body.split('\n\n').filter((block) => block.includes('data: ')).map((block) => block.slice(block.indexOf('data: ') + 6));

const folder = scratchFolders('gauntlet-bridge');

function spec(): SessionSpec {
  const workdir = folder();
  writeFileSync(join(workdir, 'server.cjs'), SERVER);
  return { workdir, upstream: { id: 's', command: process.execPath, args: [join(workdir, 'server.cjs')] }, operator: { tools: {} }, env: { PATH: process.env.PATH ?? '' }, timeoutMs: 10_000 };
}

/** Running, not a zombie waiting for whoever inherited it to reap it. */
const running = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe("the adapters' bridge", () => {
  it('carries every line both ways as it came, on the request\'s own event stream, and dies whole when closed', async () => {
    const session = spec();
    const bridge = await startBridge(session.upstream as { id: string; command: string; args: string[] }, session);
    try {
      const request = '{"jsonrpc":"2.0","id":7,"method":"tools/call",  "params":{"name":"x"}}';
      const response = await fetch(bridge.url, { method: 'POST', body: request, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const data = events(await response.text());
      expect(data.slice(0, 3)).toEqual([
        '{"jsonrpc":"2.0",  "method":"notifications/message","params":{"level":"info","data":"\\u00e9té"}}',
        'not json at all <script>',
        '{"method":"sampling/createMessage","jsonrpc":"2.0","id":"s1","params":{}}',
      ]);
      const answer = JSON.parse(data[3]!) as { id: number; result: { read: string; pid: number } };
      expect(answer.id).toBe(7);
      expect(answer.result.read).toBe(request);
      expect(data).toHaveLength(4);

      // The broker's answer to the server's request goes through with nothing back on its POST.
      const reply = await fetch(bridge.url, { method: 'POST', body: '{"jsonrpc":"2.0","id":"s1","result":{}}', headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(202);
      expect((await fetch(bridge.url)).status).toBe(405);
      expect((await fetch(new URL('/.well-known/oauth-protected-resource', bridge.url))).status).toBe(404);

      await bridge.close();
      expect(running(answer.result.pid)).toBe(false);
    } finally {
      await bridge.close();
    }
  }, 30_000);
});
