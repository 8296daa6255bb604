// The front door to a 2026-07-28 client (docs/front-door.md): no session and no GET, every POST's
// headers mirroring its body or refused HeaderMismatch before any Session sees it, each POST
// answered by a Session of its own that shares the multi round-trip handles of its credential.
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

/** A front door whose sessions answer each request with the method, and record what they were handed. */
async function open() {
  const made: Made[] = [];
  const session = (send: (line: string) => void, handles?: InputHandles): { session: AgentSession; end: () => void } => {
    const own: Made = { lines: [], handles, ended: false };
    made.push(own);
    return {
      session: {
        handleLine(line: string) {
          own.lines.push(line);
          const message = JSON.parse(line) as { id?: unknown; method?: string };
          if (message.id !== undefined) send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { method: message.method } }));
        },
      },
      end: () => (own.ended = true),
    };
  };
  const door = new FrontDoor({ listen: { host: '127.0.0.1', port: 0 }, allowedOrigins: [], plan: naiveFrontDoor(), maxBodyBytes: 4096, session });
  const url = new URL(await door.listen());
  doors.push(door);
  const send = (method: string, headers: Record<string, string>, body?: object): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: Number(url.port), path: '/mcp', method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', ...headers } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return { made, send };
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
