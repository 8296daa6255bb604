// The kit's HTTP mode run in-process: each reply reaches its request as serve() wrote it, never
// framed and read back as a line, so a reply past the line reader's 64 MiB bound is answered too.

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { serveHttp } from '../../servers/kit/http.js';
import { resolveKnobs } from '../../servers/kit/knobs.js';
import { Ledger, readLedger, type SentRecord } from '../../servers/kit/ledger.js';
import { DEFAULT_LIMITS } from '../../servers/kit/wire.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-http-replies-'));
  writeFileSync(join(dir, 'phase'), 'run\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a client read of a response: never held whole, only counted, hashed and its end kept. */
interface Received {
  status: number;
  contentLength: string | undefined;
  bytes: number;
  sha256: string;
  tail: string;
}

function post(port: number, body: unknown): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      let tail = Buffer.alloc(0);
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
        tail = Buffer.concat([tail, chunk]).subarray(-16);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentLength: res.headers['content-length'], bytes, sha256: hash.digest('hex'), tail: tail.toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function portOf(ledgerPath: string): Promise<number> {
  for (;;) {
    const listening = readLedger(ledgerPath).find((record) => record.ev === 'listening');
    if (listening !== undefined) return listening.port;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

it('answers a call whose reply is past the 64 MiB line bound, streamed with its length announced', async () => {
  const size = 80 * 1024 * 1024;
  expect(size).toBeGreaterThan(DEFAULT_LIMITS.maxLineBytes);
  const ledgerPath = join(dir, 'ledger.jsonl');
  const knobs = resolveKnobs({ 'result.search_notes': `bytes-${size}`, die_on_call: 'read_note' });
  const setup = { serverId: 'notes', knobs, ledger: new Ledger(ledgerPath), controlPath: join(dir, 'phase'), limits: DEFAULT_LIMITS };
  const served = serveHttp(setup, ['127.0.0.1']);
  const port = await portOf(ledgerPath);

  const received = await post(port, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_notes', arguments: {} } });
  const sent = readLedger(ledgerPath).find((record): record is SentRecord => record.ev === 'sent' && record.in_reply_to === '2')!;
  // The result is `size` bytes; the reply wraps it in `{"jsonrpc":"2.0","id":2,"result":` and `}`.
  expect(sent.bytes).toBe(size + '{"jsonrpc":"2.0","id":2,"result":}'.length);
  expect(received).toMatchObject({ status: 200, contentLength: String(sent.bytes), bytes: sent.bytes, sha256: sent.sha256 });
  expect(received.tail).toMatch(/[a-z]"\}\]\}\}$/);

  // die_on_call stops serve(), and with it the listener; the call itself is never answered.
  await post(port, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_note', arguments: { id: 1 } } }).catch(() => undefined);
  expect(await served).toBe('die-on-call');
}, 30_000);
