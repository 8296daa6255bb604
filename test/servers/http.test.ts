// The kit's HTTP mode, started as the harness starts it: every request recorded with all its
// headers, HTTPS with the kit's certificate (trusted through its authority only), and a call's
// result quoting the headers it came with. Needs `tsc -p tsconfig.json` to have emitted dist/.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../harness/observe/ledger.js';
import { kitCaFile, serverEntry } from '../../harness/paths.js';
import { HttpServer } from '../../harness/run/http-server.js';

let dir: string;
let ledger: Ledger;
const servers: HttpServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-http-'));
  ledger = new Ledger(join(dir, 'ledger.jsonl'));
  writeFileSync(join(dir, 'phase'), 'run\n');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(...knobs: string[]): Promise<HttpServer> {
  const args = [serverEntry, 'notes', '--ledger', ledger.path, '--control', join(dir, 'phase'), ...knobs];
  const server = await HttpServer.start({ id: 'notes', command: process.execPath, args }, ledger, 10_000, '127.0.0.1', undefined);
  servers.push(server);
  return server;
}

/** One POST over HTTPS, trusting only the kit's authority; resolves with the status and body. */
function post(port: number, body: unknown, headers: Record<string, string> = {}, trusted = true): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', ...(trusted ? { ca: readFileSync(kitCaFile, 'utf8') } : {}), headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'budget' } } };

describe('the kit over HTTPS', () => {
  it('serves TLS that the kit authority vouches for, and records every request with its headers', async () => {
    const server = await start('http_tls=1');
    const answer = await post(server.port, initialize, { authorization: 'Bearer tok-123' });
    expect(answer.status).toBe(200);
    const requests = ledger.read().filter((record) => record.ev === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/mcp', headers: { authorization: 'Bearer tok-123', 'content-type': 'application/json' } });
  });

  it('is refused by a client that does not trust the kit authority', async () => {
    const server = await start('http_tls=1');
    await expect(post(server.port, initialize, {}, false)).rejects.toThrow(/self.signed|unable to (get|verify)|certificate/i);
  });

  it('quotes the headers of a call in its result with http_echo_headers', async () => {
    const server = await start('http_tls=1', 'http_echo_headers=1');
    await post(server.port, initialize);
    const answer = JSON.parse((await post(server.port, call, { authorization: 'Bearer tok-123' })).body) as { result: { content: Array<{ text: string }> } };
    const last = answer.result.content.at(-1)?.text ?? '';
    expect(last).toContain('Request headers received:');
    expect(last).toContain('authorization: Bearer tok-123');
  });
});
