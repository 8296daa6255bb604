// The agent's Streamable HTTP client, against answers msw gives without a socket: what reaches
// the agent is the broker's bytes, one line per message, and nothing an error status or an
// oversized body carries.

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { headerValue, StreamableHttpSession } from '../../harness/agent/streamable-http.js';

const URL = 'http://broker.test/mcp';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
const INITIALIZE_ANSWER = '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"b","version":"1"}}}';

function session(maxBodyBytes?: number) {
  const lines: string[] = [];
  const notes: string[] = [];
  const failures: string[] = [];
  const client = new StreamableHttpSession({
    url: URL,
    onLine: (line) => lines.push(line),
    onNote: (note) => notes.push(note),
    onFailure: (reason) => failures.push(reason),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  });
  return { client, lines, notes, failures };
}

function sse(text: string): HttpResponse<ReadableStream<Uint8Array>> {
  const bytes = new TextEncoder().encode(text);
  // Split mid-event, so the parser is shown to join what arrives in pieces.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 7));
      controller.enqueue(bytes.subarray(7));
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
}

describe('StreamableHttpSession', () => {
  it('delivers a JSON answer as the broker wrote it, its whitespace newlines taken out', async () => {
    const body = '{"jsonrpc":"2.0",\n  "id":2,\r\n  "result":{"tools":[],"n":1.0, "big":12345678901234567890}}\n';
    server.use(http.post(URL, () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } })));
    const { client, lines, notes } = session();
    await client.send(LIST);
    expect(lines).toEqual(['{"jsonrpc":"2.0",  "id":2,  "result":{"tools":[],"n":1.0, "big":12345678901234567890}}']);
    expect(notes).toEqual([]);
  });

  it("delivers each SSE event's data as a line, other fields ignored", async () => {
    server.use(http.post(URL, () => sse('event: message\nid: 7\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n: a comment\ndata: {"jsonrpc":"2.0",\ndata: "id":2,"result":{}}\n\n')));
    const { client, lines } = session();
    await client.send(LIST);
    expect(lines).toEqual(['{"jsonrpc":"2.0","method":"notifications/progress"}', '{"jsonrpc":"2.0","id":2,"result":{}}']);
  });

  it('sends the session id and the negotiated protocol version the broker gave on initialize, and DELETEs the session at the end', async () => {
    const seen: Array<{ method: string; headers: Record<string, string | null> }> = [];
    const record = (request: Request) =>
      seen.push({
        method: request.method,
        headers: Object.fromEntries(['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version'].map((name) => [name, request.headers.get(name)])),
      });
    server.use(
      http.post(URL, async ({ request }) => {
        record(request);
        const { method } = (await request.json()) as { method: string };
        if (method === 'initialize') return new HttpResponse(INITIALIZE_ANSWER, { headers: { 'content-type': 'application/json', 'mcp-session-id': 'sess-42' } });
        if (method === 'notifications/initialized') return new HttpResponse(null, { status: 202 });
        return HttpResponse.json({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
      }),
      http.get(URL, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 405 });
      }),
      http.delete(URL, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const { client, lines, notes } = session();
    // Sent together: what follows initialize waits for its answer, so it carries the session id;
    // what follows initialized waits for the GET stream it opens, so the broker has somewhere to
    // send a call's notices before the first call.
    await Promise.all([client.send(INITIALIZE), client.send(INITIALIZED), client.send(LIST)]);
    await client.end();
    expect(lines).toEqual([INITIALIZE_ANSWER, '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}']);
    expect(notes).toEqual([]);
    const [initialize, ...later] = seen;
    expect(initialize).toEqual({ method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': null, 'mcp-protocol-version': null } });
    expect(later.map((request) => request.method)).toEqual(['POST', 'GET', 'POST', 'DELETE']);
    for (const request of later) expect(request.headers).toMatchObject({ 'mcp-session-id': 'sess-42', 'mcp-protocol-version': '2025-06-18' });
  });

  it("delivers what the broker sends on the GET stream of its own accord", async () => {
    server.use(
      http.post(URL, async ({ request }) => {
        const { method } = (await request.json()) as { method: string };
        if (method === 'initialize') return new HttpResponse(INITIALIZE_ANSWER, { headers: { 'content-type': 'application/json', 'mcp-session-id': 's' } });
        return new HttpResponse(null, { status: 202 });
      }),
      http.get(URL, () => sse('data: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n')),
      http.delete(URL, () => new HttpResponse(null, { status: 200 })),
    );
    const { client, lines } = session();
    await client.send(INITIALIZE);
    await client.send(INITIALIZED);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[1]).toBe('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
    await client.end();
  });

  it('delivers nothing for 202 Accepted', async () => {
    let streams = 0;
    server.use(
      http.post(URL, () => new HttpResponse('', { status: 202 })),
      // A 405 on the GET stream: the broker sends nothing of its own accord, which is no fault.
      http.get(URL, () => {
        streams++;
        return new HttpResponse(null, { status: 405 });
      }),
    );
    const { client, lines, notes } = session();
    await client.send(INITIALIZED);
    await expect.poll(() => streams).toBe(1);
    expect(lines).toEqual([]);
    expect(notes).toEqual([]);
  });

  it('delivers nothing for an HTTP error status, and notes it with the start of its body', async () => {
    server.use(http.post(URL, () => HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'No valid session ID' } }, { status: 400 })));
    const { client, lines, notes, failures } = session();
    await client.send(LIST);
    expect(lines).toEqual([]);
    expect(notes).toEqual(['HTTP 400 for tools/list: {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No valid session ID"}}']);
    expect(failures).toEqual([]);
  });

  it('fails the session on a body over its cap, delivering what came up to it and nothing past it', async () => {
    const chunk = new TextEncoder().encode(`data: ${'x'.repeat(1_000)}\n\n`);
    const oversized = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    server.use(http.post(URL, () => new HttpResponse(oversized, { headers: { 'content-type': 'text/event-stream' } })));
    const { client, lines, failures } = session(4_096);
    await client.send(LIST);
    expect(failures).toEqual(['POST tools/list: a body over 4096 bytes']);
    // Four whole events (1,008 bytes each), then the fifth as far as the cap: 64 bytes, 58 of them data.
    expect(lines).toEqual([...Array<string>(4).fill('x'.repeat(1_000)), 'x'.repeat(58)]);
    // A failed session sends nothing more.
    await client.send(LIST);
    expect(failures).toHaveLength(1);
  });

  it('gives what has arrived of a JSON body or an SSE event still open, and nothing once it is whole', async () => {
    const encoder = new TextEncoder();
    // Each body sends its first part, then waits for the test to release the rest.
    const releases: Array<() => void> = [];
    const held = (first: string, rest: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(first));
          releases.push(() => {
            controller.enqueue(encoder.encode(rest));
            controller.close();
          });
        },
      });
    server.use(
      http.post(URL, ({ request }) =>
        request.headers.get('x-body') === 'sse'
          ? new HttpResponse(held('data: {"jsonrpc":"2.0","method":"notifications/message"}\n\ndata: {"id":3,"result":{"t":"bb', 'bb"}}\n\n'), { headers: { 'content-type': 'text/event-stream' } })
          : new HttpResponse(held('{"id":2,\n"result":{"t":"aa', 'aa"}}'), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const { client, lines } = session();
    const json = client.send(LIST);
    await vi.waitFor(() => expect(client.arriving()).toBe('{"id":2,"result":{"t":"aa'));
    const streamed = new StreamableHttpSession({ url: URL, onLine: (line) => lines.push(line), onNote: () => {}, onFailure: () => {}, headers: { 'x-body': 'sse' } });
    const sseSent = streamed.send(LIST);
    // The whole event is delivered; only the one under way is arriving.
    await vi.waitFor(() => expect(streamed.arriving()).toBe('{"id":3,"result":{"t":"bb'));
    expect(lines).toEqual(['{"jsonrpc":"2.0","method":"notifications/message"}']);
    for (const release of releases) release();
    await Promise.all([json, sseSent]);
    expect(client.arriving()).toBe('');
    expect(streamed.arriving()).toBe('');
    expect(lines.slice(1).sort()).toEqual(['{"id":2,"result":{"t":"aaaa"}}', '{"id":3,"result":{"t":"bbbb"}}']);
  });

  it('delivers a JSON body over its cap as far as the cap, then fails the session', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'y'.repeat(10_000) } });
    server.use(http.post(URL, () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } })));
    const { client, lines, failures } = session(4_096);
    await client.send(LIST);
    expect(failures).toEqual(['POST tools/list: a body over 4096 bytes']);
    // The agent was sent that much: the harness judges it (a byte bound), it does not drop it.
    expect(lines).toEqual([body.slice(0, 4_096)]);
  });
  it('in 2026-07-28, sends each request with headers from its own body and no session: no session id, no GET stream, no DELETE', async () => {
    const seen: Array<{ method: string; headers: Record<string, string | null> }> = [];
    server.use(
      http.all(URL, async ({ request }) => {
        seen.push({ method: request.method, headers: Object.fromEntries(['mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name'].map((name) => [name, request.headers.get(name)])) });
        // A broker of 2025-11-25 would hand out a session: a 2026-07-28 agent keeps none.
        return new HttpResponse('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}', { headers: { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' } });
      }),
    );
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const { client } = session();
    await client.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }));
    await client.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: {}, _meta: meta } }));
    await client.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///a b/ü', _meta: meta } }));
    await client.end();
    expect(seen).toEqual([
      { method: 'POST', headers: { 'mcp-session-id': null, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover', 'mcp-name': null } },
      { method: 'POST', headers: { 'mcp-session-id': null, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' } },
      { method: 'POST', headers: { 'mcp-session-id': null, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': `=?base64?${Buffer.from('file:///a b/ü').toString('base64')}?=` } },
    ]);
  });

  it('carries a header value as it is when plain visible ASCII, else Base64 between the sentinels', () => {
    expect(headerValue('us-west1')).toBe('us-west1');
    expect(headerValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(headerValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(headerValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(headerValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });
});
