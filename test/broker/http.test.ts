// The broker's HTTP client side (src/upstream/http.ts): redirects refused, bodies capped whether
// their size is announced or not, only the answer to the request accepted, an answer past the
// reader's limits failing only its request, the session kept.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultOverLimit, ResultTooLarge, ServerGone } from '../../src/errors.js';
import { HttpConnection } from '../../src/upstream/http.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const servers: Server[] = [];

async function listen(handler: Handler): Promise<URL> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return new URL(`http://127.0.0.1:${address.port}/mcp`);
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const PLAN = { followRedirects: false, maxBodyBytes: 1024, bearer: undefined };
const answer = (body: string, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: number }).id, result });

describe('HttpConnection', () => {
  it('answers a request with the result in the body, and sends the session and version back', async () => {
    const headers: Array<[string | undefined, string | undefined]> = [];
    const url = await listen((request, body, response) => {
      headers.push([request.headers['mcp-session-id'] as string | undefined, request.headers['mcp-protocol-version'] as string | undefined]);
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' }).end(answer(body, { protocolVersion: '2025-06-18' }));
    });
    const connection = new HttpConnection('notes', url, PLAN);
    const first = await connection.request('initialize', undefined, 5000, 'initialize');
    expect(first.ok).toBe(true);
    await connection.request('tools/list', undefined, 5000, 'tools/list');
    expect(headers).toEqual([
      [undefined, undefined],
      ['s-1', '2025-06-18'],
    ]);
  });

  it('refuses a redirect, and its target receives nothing', async () => {
    let reached = 0;
    const target = await listen((_request, _body, response) => {
      reached++;
      response.end();
    });
    const url = await listen((_request, _body, response) => response.writeHead(307, { location: target.href }).end());
    const connection = new HttpConnection('notes', url, PLAN);
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/redirect \(HTTP 307\)/);
    expect(reached).toBe(0);
  });

  it('fails on an announced Content-Length past the cap without waiting for the body', async () => {
    // The body never arrives: only the header can end the read.
    const url = await listen((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 1_000_000 });
      response.write('{');
    });
    const connection = new HttpConnection('notes', url, PLAN);
    await expect(connection.request('tools/call', undefined, 5000, 'tools/call')).rejects.toBeInstanceOf(ResultTooLarge);
  });

  it('fails a streamed body once it passes the cap', async () => {
    const url = await listen((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('x'.repeat(2048));
      // Never ended: the read must stop on the bytes already past the cap.
    });
    const connection = new HttpConnection('notes', url, PLAN);
    await expect(connection.request('tools/call', undefined, 5000, 'tools/call')).rejects.toBeInstanceOf(ResultTooLarge);
  });

  it('fails only the request whose answer is nested past the reader depth, and goes on', async () => {
    let calls = 0;
    const url = await listen((_request, body, response) => {
      calls++;
      const deep = JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) as unknown;
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer(body, calls === 1 ? { deep } : {}));
    });
    const connection = new HttpConnection('notes', url, PLAN);
    await expect(connection.request('tools/call', undefined, 5000, 'tools/call')).rejects.toBeInstanceOf(ResultOverLimit);
    expect((await connection.request('tools/call', undefined, 5000, 'tools/call')).ok).toBe(true);
  });

  it('takes only the answer to the request it sent', async () => {
    const url = await listen((_request, _body, response) => response.writeHead(200).end(JSON.stringify({ jsonrpc: '2.0', id: 99, result: {} })));
    const connection = new HttpConnection('notes', url, PLAN);
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toBeInstanceOf(ServerGone);
  });

  it('sends the planned token as a bearer header on every request, and none without one', async () => {
    const seen: Array<string | undefined> = [];
    const url = await listen((request, body, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer(body, {}));
    });
    await new HttpConnection('notes', url, { ...PLAN, bearer: 'tok-1' }).request('tools/list', undefined, 5000, 'tools/list');
    await new HttpConnection('notes', url, PLAN).request('tools/list', undefined, 5000, 'tools/list');
    expect(seen).toEqual(['Bearer tok-1', undefined]);
  });

  it('fails every request once closed', async () => {
    const url = await listen((_request, body, response) => response.writeHead(200).end(answer(body, {})));
    const connection = new HttpConnection('notes', url, PLAN);
    await connection.close();
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/closed by the broker/);
  });
});
