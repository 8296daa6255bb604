// The front door to a 2026-07-28 client (docs/front-door.md): no session and no GET, every POST's
// body carrying the required per-request fields (else 400, Invalid params) and its headers
// mirroring it (else 400, HeaderMismatch) before any Session sees it, each POST answered by a
// Session of its own that shares the multi round-trip handles of its credential, a method it
// does not serve answered 404.
// Driven over real loopback HTTP, in front of stub sessions.

import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontDoor, type AgentSession } from '../../src/front-door/server.js';
import { headerMismatch, paramHeaderMismatch } from '../../src/front-door/per-request.js';
import { naiveFrontDoor } from '../../src/guards/front-door.js';
import { parseMessage, type Message } from '../../src/wire/jsonrpc.js';
import type { InputHandles } from '../../src/session/input-required.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

interface Made {
  readonly lines: string[];
  readonly handles: InputHandles | undefined;
  ended: boolean;
}

const doors: FrontDoor[] = [];
afterEach(() => doors.splice(0).forEach((door) => door.close()));

/**
 * A front door whose sessions answer each request with the method, and record what they were
 * handed; `ping` they answer at once as a method they do not know, `slow/work` only once `release`
 * is called.
 */
async function open() {
  const made: Made[] = [];
  const held: (() => void)[] = [];
  const session = (send: (line: string) => void, handles?: InputHandles): { session: AgentSession; end: () => void } => {
    const own: Made = { lines: [], handles, ended: false };
    made.push(own);
    return {
      session: {
        handleLine(line: string) {
          own.lines.push(line);
          const message = JSON.parse(line) as { id?: unknown; method?: string };
          if (message.id === undefined) return;
          const answer = message.method === 'ping' ? { error: { code: -32601, message: 'Method not found: ping' } } : { result: { method: message.method } };
          const answered = () => send(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }));
          if (message.method === 'slow/work') held.push(answered);
          else answered();
        },
      },
      end: () => (own.ended = true),
    };
  };
  const door = new FrontDoor({ listen: { host: '127.0.0.1', port: 0 }, allowedOrigins: [], plan: naiveFrontDoor(), maxBodyBytes: 4096, session });
  const url = new URL(await door.listen());
  doors.push(door);
  /** `onHead` runs once the answer's status and headers arrive, before its body. */
  const send = (method: string, headers: Record<string, string>, body?: object, onHead?: () => void): Promise<{ status: number; type: string | undefined; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: Number(url.port), path: '/mcp', method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', ...headers } }, (res) => {
        onHead?.();
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body: text }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  const release = () => held.splice(0).forEach((answer) => answer());
  return { made, send, release };
}

const call = (name: string, extra: object = {}) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, _meta: META, ...extra } });
const data = (body: string): string => body.split('\n').find((line) => line.startsWith('data: '))!.slice(6);

describe('the front door to a 2026-07-28 client', () => {
  it('answers each POST whose headers mirror its body with a Session of its own, ended with the answer; the handles shared per credential', async () => {
    const { made, send } = await open();
    const first = await send('POST', { 'mcp-method': 'tools/call', 'mcp-name': 'search' }, call('search'));
    expect(first.status).toBe(200);
    expect(JSON.parse(data(first.body))).toEqual({ jsonrpc: '2.0', id: 7, result: { method: 'tools/call' } });
    await send('POST', { 'mcp-method': 'tools/list', 'mcp-session-id': 'ignored' }, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } });
    await send('POST', { 'mcp-method': 'tools/list', authorization: 'Bearer other' }, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } });
    expect(made).toHaveLength(3);
    expect(made.every((session) => session.ended)).toBe(true);
    expect(made[0]!.handles).toBeDefined();
    expect(made[1]!.handles).toBe(made[0]!.handles);
    expect(made[2]!.handles).not.toBe(made[0]!.handles);
  });

  it('refuses headers that disagree with the body, or are missing, with 400 and HeaderMismatch, before any Session sees the request', async () => {
    const { made, send } = await open();
    const refused = [
      await send('POST', { 'mcp-method': 'tools/call', 'mcp-name': 'search' }, call('delete_all')),
      await send('POST', { 'mcp-method': 'tools/list', 'mcp-name': 'search' }, call('search')),
      await send('POST', { 'mcp-name': 'search' }, call('search')),
      await send('POST', { 'mcp-method': 'tools/call' }, call('search')),
      await send('POST', { 'mcp-method': 'tools/call', 'mcp-name': 'search' }, { ...call('search'), params: { name: 'search', _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } }),
    ];
    for (const reply of refused) {
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error.code).toBe(-32020);
    }
    expect(made).toEqual([]);
  });

  it('refuses a request without a required per-request field with 400 and Invalid params, before its headers are compared and before any Session sees it', async () => {
    const { made, send } = await open();
    const list = (meta?: object) => ({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: meta === undefined ? {} : { _meta: meta } });
    const cases: [object, string][] = [
      [list(), 'io.modelcontextprotocol/protocolVersion is required'],
      [list({ 'io.modelcontextprotocol/clientCapabilities': {} }), 'io.modelcontextprotocol/protocolVersion is required'],
      [list({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }), 'io.modelcontextprotocol/clientCapabilities is required'],
      [list({ ...META, 'io.modelcontextprotocol/clientCapabilities': [] }), 'io.modelcontextprotocol/clientCapabilities must be an object'],
    ];
    for (const [body, problem] of cases) {
      // The Mcp-Method header is missing too: the malformed body is what is answered.
      const reply = await send('POST', {}, body);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: `Invalid params: ${problem}` } });
    }
    expect(made).toEqual([]);
  });

  it('answers a method the Session does not serve with 404 and its Method not found, on a stream or as JSON; a call that takes its time has its head at once', async () => {
    const { send, release } = await open();
    const ping = { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: META } };
    for (const accept of ['application/json, text/event-stream', 'application/json']) {
      const reply = await send('POST', { 'mcp-method': 'ping', accept }, ping);
      expect(reply).toMatchObject({ status: 404, type: 'application/json' });
      expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found: ping' } });
    }
    let headed = false;
    const slow = send('POST', { 'mcp-method': 'slow/work' }, { jsonrpc: '2.0', id: 5, method: 'slow/work', params: { _meta: META } }, () => (headed = true));
    await expect.poll(() => headed).toBe(true);
    release();
    const reply = await slow;
    expect(reply).toMatchObject({ status: 200, type: 'text/event-stream' });
    expect(JSON.parse(data(reply.body))).toEqual({ jsonrpc: '2.0', id: 5, result: { method: 'slow/work' } });
  });

  it('refuses GET and DELETE with 405, accepts a notification and refuses a response', async () => {
    const { made, send } = await open();
    expect((await send('GET', {})).status).toBe(405);
    expect((await send('DELETE', {})).status).toBe(405);
    expect((await send('POST', { 'mcp-method': 'notifications/cancelled' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).status).toBe(202);
    expect((await send('POST', {}, { jsonrpc: '2.0', id: 1, result: {} })).status).toBe(400);
    expect(made).toEqual([]);
  });
});

describe('a 2026-07-28 request’s headers', () => {
  const request = (text: string): Extract<Message, { kind: 'request' }> => parseMessage(text) as Extract<Message, { kind: 'request' }>;
  const read = request('{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///notes/é.txt","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}');

  it('name a URI outside plain ASCII by the Base64 sentinel, decoded before the comparison', () => {
    const encoded = `=?base64?${Buffer.from('file:///notes/é.txt').toString('base64')}?=`;
    expect(headerMismatch({ 'mcp-method': 'resources/read', 'mcp-name': encoded }, read, '2026-07-28')).toBeUndefined();
    expect(headerMismatch({ 'mcp-method': 'resources/read', 'mcp-name': `=?base64?${Buffer.from('file:///other').toString('base64')}?=` }, read, '2026-07-28')).toMatch(/does not match/);
    expect(headerMismatch({ 'mcp-method': 'resources/read', 'mcp-name': '=?base64?not base64?=' }, read, '2026-07-28')).toBe('the Mcp-Name header is malformed');
  });
});

describe('a 2026-07-28 call’s Mcp-Param-* headers', () => {
  const call = (args: unknown): Extract<Message, { kind: 'request' }> =>
    parseMessage(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: args, _meta: META } })) as Extract<Message, { kind: 'request' }>;
  const annotated = [{ name: 'Region', path: ['region'] }];

  it('pass when each one sent, decoded, says what the annotated argument says, or none is sent', () => {
    expect(paramHeaderMismatch({ 'mcp-param-region': 'us-west1' }, call({ region: 'us-west1' }), annotated)).toBeUndefined();
    expect(paramHeaderMismatch({ 'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=' }, call({ region: 'Hello, 世界' }), annotated)).toBeUndefined();
    expect(paramHeaderMismatch({}, call({ region: 'us-west1' }), annotated)).toBeUndefined();
    expect(paramHeaderMismatch({ 'mcp-param-other': 'x' }, call({ region: 'us-west1' }), annotated)).toBeUndefined();
  });

  it('fail when one says otherwise than the body, names an argument the body lacks, or is malformed', () => {
    expect(paramHeaderMismatch({ 'mcp-param-region': 'eu-central1' }, call({ region: 'us-west1' }), annotated)).toMatch(/does not match/);
    expect(paramHeaderMismatch({ 'mcp-param-region': 'us-west1' }, call({}), annotated)).toMatch(/does not match/);
    expect(paramHeaderMismatch({ 'mcp-param-region': '=?base64?not base64?=' }, call({ region: 'x' }), annotated)).toMatch(/malformed/);
  });
});
