// The broker's HTTP client side when a server answers a POST with an event stream, as the
// Streamable HTTP transport allows (src/upstream/http.ts): the answer is taken from the stream
// after a priming event; the notifications and requests the server sends before it reach the same
// listeners and handler as over stdio, a request's answer going back as one more POST; the bytes
// taken are the server's, read by the broker's own reader; and a stream that ends without its
// answer, carries an event past the body cap, floods events or carries no JSON-RPC fails its
// request, named, at once rather than at the timeout.

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultTooLarge, ServerGone } from '../../src/errors.js';
import { HttpConnection, MAX_LISTEN_OPENS, type Dialling } from '../../src/upstream/http.js';
import { writeJson } from '../../src/json/writer.js';
import { plain } from '../../src/json/tree.js';
import type { JsonValue } from '../../src/types.js';
import { closeListeners, listen } from './loopback-http.js';

afterEach(closeListeners);

const PLAN = { followRedirects: false, maxBodyBytes: 1024, bearer: undefined };
const ANYWHERE: Dialling = { refuse: () => null };
/** A call is given this long; every failure below must come well before it. */
const PATIENT_MS = 20_000;

const parsed = (body: string) => JSON.parse(body) as { id?: number | string; method?: string; params?: unknown; result?: unknown };
const event = (message: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
const openStream = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

describe('HttpConnection over an event stream', () => {
  it('takes the answer after a priming event and a comment, and hands a notification sent before it to its listener', async () => {
    const url = await listen((_request, body, response) => {
      const { id } = parsed(body);
      openStream(response);
      response.write('id: p-0\ndata:\n\n: keep-alive\n\n');
      response.write(event({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }, 'p-1'));
      // The answer, split mid-event and with CRLF line endings.
      const last = event({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } }).replaceAll('\n', '\r\n');
      response.write(last.slice(0, 17));
      response.end(last.slice(17));
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const progress: string[] = [];
    connection.onNotification('notifications/progress', (params) => progress.push(params === undefined ? '' : writeJson(params)));
    const reply = await connection.request('tools/call', undefined, PATIENT_MS, 'tools/call');
    expect(reply.ok ? writeJson(reply.result) : undefined).toBe('{"content":[{"type":"text","text":"done"}]}');
    expect(progress).toEqual(['{"progressToken":"t","progress":1}']);
  });

  it('keeps the numbers as the server wrote them: no float64 in between', async () => {
    const url = await listen((_request, body, response) => {
      openStream(response).end(`data: {"jsonrpc":"2.0","id":${String(parsed(body).id)},"result":{"n":12345678901234567890,"x":1.10}}\n\n`);
    });
    const reply = await new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/call', undefined, PATIENT_MS, 'tools/call');
    expect(reply.ok ? writeJson(reply.result) : undefined).toBe('{"n":12345678901234567890,"x":1.10}');
  });

  it("answers the server's request sent on the stream with one more POST, through the session's handler", async () => {
    const posted: Array<ReturnType<typeof parsed>> = [];
    let held: { response: ServerResponse; id: number | string | undefined } | undefined;
    const url = await listen((request, body, response) => {
      const message = parsed(body);
      posted.push(message);
      if (message.method === 'tools/call') {
        openStream(response);
        response.write(event({ jsonrpc: '2.0', id: 'ask-1', method: 'sampling/createMessage', params: { maxTokens: 5 } }));
        held = { response, id: message.id };
        return;
      }
      // The broker's answer to the server's request: accepted, and the call is answered.
      expect(request.headers['content-type']).toBe('application/json');
      response.writeHead(202).end();
      held?.response.end(event({ jsonrpc: '2.0', id: held.id, result: { summary: message.result } }));
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const asked: string[] = [];
    connection.onRequest((method, params) => {
      asked.push(`${method} ${params === undefined ? '' : writeJson(params)}`);
      return Promise.resolve({ ok: true, result: plain({ role: 'assistant', content: { type: 'text', text: 'short' } }) as JsonValue });
    });
    const reply = await connection.request('tools/call', undefined, PATIENT_MS, 'tools/call');
    expect(asked).toEqual(['sampling/createMessage {"maxTokens":5}']);
    expect(posted[1]).toEqual({ jsonrpc: '2.0', id: 'ask-1', result: { role: 'assistant', content: { type: 'text', text: 'short' } } });
    expect(reply.ok ? writeJson(reply.result) : undefined).toBe('{"summary":{"role":"assistant","content":{"type":"text","text":"short"}}}');
  });

  it("holds the server's request while no session handles them (Load) until one does, and answers ping at once", async () => {
    const answers: unknown[] = [];
    let held: { response: ServerResponse; id: number | string | undefined } | undefined;
    const url = await listen((_request, body, response) => {
      const message = parsed(body);
      if (message.method === 'tools/list') {
        openStream(response);
        response.write(event({ jsonrpc: '2.0', id: 'r', method: 'roots/list' }) + event({ jsonrpc: '2.0', id: 'p', method: 'ping' }));
        held = { response, id: message.id };
        return;
      }
      answers.push(message);
      response.writeHead(202).end();
      if (answers.length === 1) held?.response.end(event({ jsonrpc: '2.0', id: held.id, result: { tools: [] } }));
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const reply = await connection.request('tools/list', undefined, PATIENT_MS, 'tools/list');
    expect(reply.ok).toBe(true);
    expect(answers).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }]);
    connection.onRequest(async () => ({ ok: true, result: plain({ roots: [] }) }));
    await expect.poll(() => answers).toContainEqual({ jsonrpc: '2.0', id: 'r', result: { roots: [] } });
  });

  it('drops an answer to another request and an event of another type, and takes its own', async () => {
    const url = await listen((_request, body, response) => {
      const { id } = parsed(body);
      openStream(response).end(`event: other\ndata: {"jsonrpc":"2.0","id":${String(id)},"result":{"wrong":1}}\n\n${event({ jsonrpc: '2.0', id: 99, result: { wrong: 2 } })}${event({ jsonrpc: '2.0', id, result: { right: true } })}`);
    });
    const reply = await new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, PATIENT_MS, 'tools/list');
    expect(reply.ok ? writeJson(reply.result) : undefined).toBe('{"right":true}');
  });
});

describe('HttpConnection, the stream outside any call', () => {
  it("opens it once initialized with the session, the version and the operator's token; hands over what arrives on it; opens it again at most MAX_LISTEN_OPENS times", async () => {
    const gets: Array<Record<string, string | string[] | undefined>> = [];
    const posted: Array<ReturnType<typeof parsed>> = [];
    const url = await listen((request, body, response) => {
      if (request.method === 'GET') {
        gets.push(request.headers);
        // Each stream carries a log line and a request of the server's own, then ends.
        const n = gets.length;
        openStream(response).end(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${n}` } }) + event({ jsonrpc: '2.0', id: `roots-${n}`, method: 'roots/list' }));
        return;
      }
      const message = parsed(body);
      posted.push(message);
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'S-1' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
        return;
      }
      response.writeHead(202).end();
    });
    const connection = new HttpConnection('notes', url, { ...PLAN, bearer: 'operator-token' }, ANYWHERE);
    const lines: string[] = [];
    connection.onNotification('notifications/message', (params) => lines.push(params === undefined ? '' : writeJson(params)));
    connection.onRequest(async () => ({ ok: true, result: plain({ roots: [] }) }));
    expect((await connection.request('initialize', undefined, PATIENT_MS, 'initialize')).ok).toBe(true);
    expect(gets).toEqual([]);
    connection.notify('notifications/initialized', undefined);
    await expect.poll(() => posted.filter(({ id }) => typeof id === 'string').length, { timeout: 10_000 }).toBe(MAX_LISTEN_OPENS);
    expect(gets).toHaveLength(MAX_LISTEN_OPENS);
    expect(gets[0]).toMatchObject({ accept: 'text/event-stream', 'mcp-session-id': 'S-1', 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer operator-token' });
    expect(lines).toEqual([1, 2, 3, 4].map((n) => `{"level":"info","data":"line ${n}"}`));
    expect(posted.filter(({ id }) => typeof id === 'string')).toEqual([1, 2, 3, 4].map((n) => ({ jsonrpc: '2.0', id: `roots-${n}`, result: { roots: [] } })));
    await connection.close();
  });
});

describe("HttpConnection's event streams fail closed, each failure named", () => {
  const failsWith = async (serve: (response: ServerResponse, id: number | string | undefined) => void) => {
    const url = await listen((_request, body, response) => serve(openStream(response), parsed(body).id));
    const started = Date.now();
    const asked = new HttpConnection('notes', url, PLAN, ANYWHERE).request('initialize', undefined, PATIENT_MS, 'initialize');
    const err = await asked.catch((e: unknown) => e);
    // Every failure is decided by the bytes, never by the call's timeout.
    expect(Date.now() - started).toBeLessThan(PATIENT_MS / 2);
    return err;
  };

  it('fails a stream that ends without the answer', async () => {
    const err = await failsWith((response) => response.end(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })));
    expect(err).toBeInstanceOf(ServerGone);
    expect(err).toMatchObject({ message: 'server "notes" ended the event stream answering initialize without its answer' });
  });

  it('fails an event past the body cap as an over-long body, before the event ends', async () => {
    const err = await failsWith((response) => response.write(`data: "${'x'.repeat(2000)}`));
    expect(err).toBeInstanceOf(ResultTooLarge);
    expect(err).toMatchObject({ message: 'server "notes" answered initialize with an event longer than 1024 bytes' });
  });

  it('cuts an endless stream of notifications at the most events a stream may carry', async () => {
    const err = await failsWith((response) => {
      const flood = event({ jsonrpc: '2.0', method: 'notifications/message' }).repeat(200);
      const write = () => {
        if (!response.destroyed && response.write(flood)) setImmediate(write);
        else response.once('drain', write);
      };
      write();
    });
    expect(err).toBeInstanceOf(ServerGone);
    expect((err as Error).message).toMatch(/^server "notes" answered initialize with an event stream (of more than 1024 events|longer than 2048 bytes)$/);
  });

  it('cuts an endless stream of comments at the bytes a stream may carry', async () => {
    const err = await failsWith((response) => {
      const write = () => {
        if (!response.destroyed && response.write(': keep-alive\n'.repeat(50))) setImmediate(write);
        else response.once('drain', write);
      };
      write();
    });
    expect(err).toMatchObject({ message: 'server "notes" answered initialize with an event stream longer than 2048 bytes' });
  });

  it('fails an event whose data is not a JSON-RPC message, and one that is not UTF-8', async () => {
    expect(await failsWith((response) => response.end('data: {"jsonrpc":"2.0"\n\n'))).toMatchObject({
      message: expect.stringMatching(/^server "notes" answered initialize with an event that is not a JSON-RPC message: not valid JSON/) as string,
    });
    expect(await failsWith((response) => response.end(Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a])))).toMatchObject({
      message: 'server "notes" answered initialize with an event-stream line that is not valid UTF-8',
    });
  });
});
