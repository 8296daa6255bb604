// The kit's HTTP mode, started as the harness starts it: every request recorded with all its
// headers, HTTPS with the kit's certificate (trusted through its authority only), and a call's
// result quoting the headers it came with. Needs `tsc -b` to have emitted dist/.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as plainRequest } from 'node:http';
import { request } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { connect, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
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

async function startOn(listen: string[], ...knobs: string[]): Promise<HttpServer> {
  const args = [serverEntry, 'notes', '--ledger', ledger.path, '--control', join(dir, 'phase'), ...knobs];
  const server = await HttpServer.start({ id: 'notes', command: process.execPath, args }, ledger, 10_000, listen, undefined);
  servers.push(server);
  return server;
}

const start = (...knobs: string[]): Promise<HttpServer> => startOn(['127.0.0.1'], ...knobs);

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

/** One plain-HTTP POST to `host`; resolves with the status, the Location header and the body. */
function postPlain(host: string, port: number, body: unknown): Promise<{ status: number; location: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = plainRequest({ host, port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('the kit on several addresses', () => {
  // All of 127/8 is on Linux's loopback: two addresses without an enclosure.
  it('serves them all on one port, and records which address each connection reached', async () => {
    const server = await startOn(['127.0.0.1', '127.0.0.2']);
    for (const host of ['127.0.0.2', '127.0.0.1', '127.0.0.2']) {
      await new Promise<void>((resolve, reject) => connect({ host, port: server.port }, function (this: ReturnType<typeof connect>) {
        this.end();
        resolve();
      }).on('error', reject));
    }
    // The kit records a connection as it accepts it, which may come after the client saw it open.
    await expect.poll(() => ledger.read().filter((record) => record.ev === 'connection').length).toBe(3);
    const reached = ledger.read().flatMap((record) => (record.ev === 'connection' ? [record.local] : []));
    expect(reached.sort()).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.2']);
  });

  it('redirects a call from every other address to the one http_redirect_to names, and answers it there', async () => {
    const server = await startOn(['127.0.0.1', '127.0.0.2'], 'http_redirect_to=127.0.0.2');
    expect((await postPlain('127.0.0.1', server.port, initialize)).status).toBe(200);
    const redirected = await postPlain('127.0.0.1', server.port, call);
    expect(redirected).toMatchObject({ status: 307, location: `http://127.0.0.2:${server.port}/mcp` });
    const answered = await postPlain('127.0.0.2', server.port, call);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } });
    // Only the call that arrived where it was sent reached the server.
    const calls = ledger.read().filter((record) => record.ev === 'recv' && record.method === 'tools/call');
    expect(calls).toHaveLength(1);
  });

  it('keeps the redirect on https when it serves TLS, so no rule against plain http can refuse the hop', async () => {
    const server = await startOn(['127.0.0.1', '127.0.0.2'], 'http_tls=1', 'http_redirect_to=127.0.0.2');
    expect((await post(server.port, initialize)).status).toBe(200);
    const redirected = await postWithLocation(server.port, call);
    expect(redirected).toMatchObject({ status: 307, location: `https://127.0.0.2:${server.port}/mcp` });
  });
});

/** One POST over HTTPS to 127.0.0.1, trusting the kit's authority; resolves with the status and the Location header. */
function postWithLocation(port: number, body: unknown): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', ca: readFileSync(kitCaFile, 'utf8'), headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe("the kit's certificate", () => {
  // A case over https must be judged on the address it names, never spared by a certificate a
  // naive client could not verify: every address and name a TLS scenario serves on is named.
  it('names every address and name a scenario serving TLS listens on or resolves', () => {
    const certificate = new X509Certificate(readFileSync(join(dirname(kitCaFile), 'server.pem')));
    const unnamed = loadCatalogue()
      .flatMap((scenario) => Object.values(scenario.servers ?? { server: scenario.server }).filter((server) => server.knobs?.http_tls !== undefined))
      .flatMap((server) => [...[server.listen ?? '127.0.0.1'].flat(), ...Object.keys(server.hosts ?? {}), ...Object.keys(server.resolves ?? {})])
      .filter((host) => (isIP(host) === 0 ? certificate.checkHost(host) : certificate.checkIP(host)) === undefined);
    expect([...new Set(unnamed)]).toEqual([]);
  });
});
