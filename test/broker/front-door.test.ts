// The broker's HTTP front door (docs/front-door.md): where it listens, which Host and Origin it
// serves, how session ids are made and bound, how many sessions it holds, a request id already
// waiting, what a session says of its own sent on its stream, and what each guard removed gives
// back. The front door is driven over real loopback HTTP, in front of stub sessions.

import { request, type ClientRequest } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isOwnOrigin, namesListener, parseListen } from '../../src/front-door/address.js';
import { FrontDoor, type AgentSession } from '../../src/front-door/server.js';
import { MAX_SESSIONS, SessionTable } from '../../src/front-door/sessions.js';
import { SharedNotices } from '../../src/front-door/notices.js';
import type { Requester } from '../../src/upstream/connection.js';
import { frontDoorCredential, frontDoorLoopback, hostCheck, logLinesAttributed, naiveFrontDoor, originCheck, sessionBinding, sessionIdsUnguessable, type FrontDoorPlan } from '../../src/guards/front-door.js';
import { FRONT_DOOR_TOKEN_VARIABLE, readFrontDoorCredential, type FrontDoorCredential } from '../../src/front-door/credential.js';
import { ConfigError } from '../../src/errors.js';
import { ERROR, brokerError } from '../../src/wire/jsonrpc.js';
import { SERVED_VERSIONS } from '../../src/session/identity.js';
import { FakeRequester } from './fake-requester.js';

const ALL = [frontDoorLoopback, originCheck, hostCheck, frontDoorCredential, sessionBinding, sessionIdsUnguessable, logLinesAttributed];
const planWithout = (...names: string[]): FrontDoorPlan => ALL.filter((guard) => !names.includes(guard.name)).reduce((plan, guard) => guard.plan(plan), naiveFrontDoor());

/** A session that answers every request with a result naming the session's number. */
function stubSessions() {
  let made = 0;
  return (send: (line: string) => void): { session: AgentSession; end: () => void } => {
    const own = (made += 1);
    const session = {
      handleLine(line: string) {
        const message = JSON.parse(line) as { id?: unknown; method?: string };
        if (message.id !== undefined) send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { session: own, method: message.method } }));
      },
    };
    return { session, end: () => {} };
  };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const doors: Array<{ stop: () => void }> = [];
afterEach(() => doors.splice(0).forEach((door) => door.stop()));

async function open(plan: FrontDoorPlan, allowedOrigins: string[] = [], session = stubSessions(), credential?: FrontDoorCredential) {
  const door = new FrontDoor({ listen: { host: undefined, port: 0 }, allowedOrigins, plan, maxBodyBytes: 1024, session, ...(credential === undefined ? {} : { credential }) });
  const url = new URL(await door.listen());
  const port = Number(url.port);
  doors.push({ stop: () => door.close() });
  /**
   * A GET's stream never ends, so only its head is read; `readStream` reads a stream a POST's answer
   * ends. A POST takes JSON only unless told (the front door answers an event stream to a client
   * that accepts one); a GET accepts both, as the SDK's client does.
   */
  const send = (method: string, headers: Record<string, string>, body?: string, { path = '/mcp', readStream = false } = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const accept = method === 'POST' ? 'application/json' : 'application/json, text/event-stream';
      const req = request({ host: '127.0.0.1', port, path, method, headers: { 'content-type': 'application/json', accept, ...headers } }, (res) => {
        if (String(res.headers['content-type']).includes('text/event-stream') && !readStream) {
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body: '' });
          return;
        }
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const post = (method: string, headers: Record<string, string> = {}) => send('POST', headers, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }));
  const initialize = async (headers: Record<string, string> = {}) => {
    const reply = await post('initialize', headers);
    return { reply, id: reply.headers['mcp-session-id'] as string | undefined };
  };
  return { url, port, send, post, initialize };
}

describe('--listen', () => {
  it('takes a port, an address and a port, or a bracketed IPv6 address and a port', () => {
    expect(parseListen('8080')).toEqual({ host: undefined, port: 8080 });
    expect(parseListen('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseListen('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListen('localhost:1')).toEqual({ host: 'localhost', port: 1 });
  });

  it('refuses anything else', () => {
    for (const text of ['0', '70000', 'example.com:80', '::1:80', '[127.0.0.1]:80', '127.0.0.1:', '']) expect(() => parseListen(text), text).toThrow(ConfigError);
  });

  it('takes the ports from 1 to 65535, and says why it refuses each other text', () => {
    expect(parseListen('65535')).toEqual({ host: undefined, port: 65535 });
    expect(parseListen('[FE80::1]:1')).toEqual({ host: 'FE80::1', port: 1 });
    const refused = (text: string, why: string) => expect(() => parseListen(text)).toThrow(new ConfigError(`--listen ${text}${why}`));
    const PORT = ' is not [HOST:]PORT with a port from 1 to 65535';
    for (const text of ['0', '65536', '99999', '123456', 'x8080', '8080x', '127.0.0.1:8080:1', ':8080']) refused(text, PORT);
    refused('example.com:80', ': example.com is not an IP address or localhost');
    refused('[127.0.0.1]:80', ': 127.0.0.1 is not an IPv6 address');
  });
});

describe('the Host header', () => {
  it('names the listener by a loopback name or its own address, with its port', () => {
    expect(namesListener('127.0.0.1:4000', '127.0.0.1', 4000)).toBe(true);
    expect(namesListener('LOCALHOST:4000', '127.0.0.1', 4000)).toBe(true);
    expect(namesListener('[::1]:4000', '127.0.0.1', 4000)).toBe(true);
    expect(namesListener('10.0.0.5:4000', '10.0.0.5', 4000)).toBe(true);
  });

  it('refuses another name, another port, no port and no header', () => {
    expect(namesListener('rebind.example:4000', '127.0.0.1', 4000)).toBe(false);
    expect(namesListener('127.0.0.1:4001', '127.0.0.1', 4000)).toBe(false);
    expect(namesListener('127.0.0.1', '127.0.0.1', 4000)).toBe(false);
    expect(namesListener(undefined, '127.0.0.1', 4000)).toBe(false);
  });

  it('names a listener on an IPv6 address by that address in brackets, in any case, and no bare or unported form', () => {
    expect(namesListener('[fe80::1]:4000', 'FE80::1', 4000)).toBe(true);
    expect(namesListener('[FE80::1]:4000', 'fe80::1', 4000)).toBe(true);
    expect(namesListener('fe80::1:4000', 'fe80::1', 4000)).toBe(false);
    expect(namesListener('[fe80::1]', 'fe80::1', 4000)).toBe(false);
    expect(namesListener('[::1]', '127.0.0.1', 4000)).toBe(false);
    // A name's case never matters; a listener's own name counts only for that listener.
    expect(namesListener('Localhost:4000', undefined, 4000)).toBe(true);
    expect(namesListener('10.0.0.5:4000', undefined, 4000)).toBe(false);
    expect(namesListener('10.0.0.5:4000', '10.0.0.6', 4000)).toBe(false);
    expect(namesListener(':4000', '127.0.0.1', 4000)).toBe(false);
    expect(namesListener('127.0.0.1:', '127.0.0.1', 4000)).toBe(false);
  });
});

describe('the Origin header', () => {
  it("is the listener's own origin for each of its names over http with its port, as a browser serialises it", () => {
    for (const origin of ['http://localhost:4000', 'http://127.0.0.1:4000', 'http://[::1]:4000']) expect(isOwnOrigin(origin, '127.0.0.1', 4000), origin).toBe(true);
    expect(isOwnOrigin('http://localhost:4000', undefined, 4000)).toBe(true);
    expect(isOwnOrigin('http://10.0.0.5:4000', '10.0.0.5', 4000)).toBe(true);
    expect(isOwnOrigin('http://localhost', '127.0.0.1', 80)).toBe(true);
  });

  it('is not for another name (a rebound one), another port, another scheme, a path, a user, another serialisation or no URL', () => {
    for (const origin of [
      'http://rebind.example:4000',
      'http://localhost.evil.example:4000',
      'http://localhost:4001',
      'http://localhost',
      'https://localhost:4000',
      'http://localhost:4000/',
      'http://localhost:4000/mcp',
      'http://user@localhost:4000',
      'http://LOCALHOST:4000',
      'http://localhost:80',
      'http://10.0.0.5:4000',
      'null',
      '',
    ])
      expect(isOwnOrigin(origin, '127.0.0.1', 4000), origin).toBe(false);
  });
});

describe('the session table', () => {
  it('finds a bound session only with the credential that opened it', () => {
    const table = new SessionTable(() => 'id', true);
    const { id } = table.open('Bearer a', () => 'state')!;
    expect(table.find(id, 'Bearer a')).toBe('state');
    expect(table.find(id, 'Bearer b')).toBeUndefined();
    expect(table.find(id, undefined)).toBeUndefined();
    expect(table.find('other', 'Bearer a')).toBeUndefined();
    table.end(id);
    expect(table.find(id, 'Bearer a')).toBeUndefined();
  });

  it('without binding, finds a session by its id alone', () => {
    const table = new SessionTable(() => 'id', false);
    table.open('Bearer a', () => 'state');
    expect(table.find('id', 'Bearer b')).toBe('state');
  });

  it('holds a bounded number of sessions', () => {
    let next = 0;
    const table = new SessionTable(() => String((next += 1)), true);
    for (let i = 0; i < MAX_SESSIONS; i += 1) expect(table.open(undefined, () => i)).toBeDefined();
    expect(table.open(undefined, () => 0)).toBeUndefined();
  });
});

describe("the server's notices shared by the sessions", () => {
  it('hold one listener on the server, and let go of a session\'s when it ends', () => {
    const registered: Array<() => void> = [];
    let askAgent: ((method: string, params: undefined) => Promise<unknown>) | undefined;
    const upstream = {
      request: async () => ({ ok: true, result: null }),
      notify: () => {},
      onNotification: (_method: string, listener: () => void) => void registered.push(listener),
      onRequest: (handler: typeof askAgent) => void (askAgent = handler),
    } as unknown as Requester;
    const notices = new SharedNotices(upstream, true);
    const heard: string[] = [];
    const first = notices.view();
    const second = notices.view();
    first.upstream.onNotification('notifications/tools/list_changed', () => heard.push('first'));
    second.upstream.onNotification('notifications/tools/list_changed', () => heard.push('second'));
    expect(registered).toHaveLength(1);
    registered[0]!();
    first.end();
    registered[0]!();
    expect(heard).toEqual(['first', 'second', 'second']);
  });

  it("send the server's requests to the latest live session, and refuse them with none", async () => {
    let askAgent: ((method: string, params: undefined) => Promise<{ ok: boolean }>) | undefined;
    const upstream = { onNotification: () => {}, onRequest: (handler: typeof askAgent) => void (askAgent = handler) } as unknown as Requester;
    const notices = new SharedNotices(upstream, true);
    const asked: string[] = [];
    const views = ['first', 'second'].map((name) => {
      const view = notices.view();
      view.upstream.onRequest(async () => {
        asked.push(name);
        return { ok: true, result: { kind: 'null' } };
      });
      return view;
    });
    await askAgent!('sampling/createMessage', undefined);
    views[1]!.end();
    await askAgent!('sampling/createMessage', undefined);
    views[0]!.end();
    expect(await askAgent!('sampling/createMessage', undefined)).toEqual({ ok: false, error: brokerError(ERROR.invalidRequest, 'no agent session is open to ask') });
    expect(asked).toEqual(['second', 'first']);
  });

  it("leave the other sessions' handler in place when a session that never took the server's requests ends", async () => {
    let askAgent: ((method: string, params: undefined) => Promise<{ ok: boolean }>) | undefined;
    const upstream = { onNotification: () => {}, onRequest: (handler: typeof askAgent) => void (askAgent = handler) } as unknown as Requester;
    const notices = new SharedNotices(upstream, true);
    const taking = notices.view();
    taking.upstream.onRequest(async () => ({ ok: true, result: { kind: 'null' } }));
    notices.view().end();
    expect(await askAgent!('sampling/createMessage', undefined)).toEqual({ ok: true, result: { kind: 'null' } });
  });

  it("send a log line only to the session it can be for alone, or to every session without attribution", async () => {
    const registered = new Map<string, (params: undefined) => void>();
    let answer: () => void = () => {};
    const upstream = {
      request: () => new Promise((resolve) => (answer = () => resolve({ ok: true, result: { kind: 'null' } }))),
      notify: () => {},
      onNotification: (method: string, listener: (params: undefined) => void) => void registered.set(method, listener),
      onRequest: () => {},
    } as unknown as Requester;
    const heardWith = (attribute: boolean) => {
      const notices = new SharedNotices(upstream, attribute);
      const heard: string[] = [];
      const views = ['alice', 'bob'].map((name) => {
        const view = notices.view();
        view.upstream.onNotification('notifications/message', () => heard.push(name));
        view.upstream.onNotification('notifications/progress', () => heard.push(`${name} progress`));
        return view;
      });
      return { heard, views, log: () => registered.get('notifications/message')!(undefined), progress: () => registered.get('notifications/progress')!(undefined) };
    };
    const attributed = heardWith(true);
    // Two sessions, neither calling: the line could be either's.
    attributed.log();
    const aliceCall = attributed.views[0]!.upstream.request('tools/call', undefined, 1000, 'tools/call');
    attributed.log();
    const bobCall = attributed.views[1]!.upstream.request('tools/call', undefined, 1000, 'tools/call');
    attributed.log();
    // Progress carries its token: every session judges it as its own.
    attributed.progress();
    answer();
    await bobCall;
    attributed.views[1]!.end();
    attributed.log();
    expect(attributed.heard).toEqual(['alice', 'alice progress', 'bob progress', 'alice']);
    void aliceCall;
    const fannedOut = heardWith(false);
    fannedOut.log();
    expect(fannedOut.heard).toEqual(['alice', 'bob']);
  });

  it("pass each session's requests and notifications to the one server", async () => {
    const server = new FakeRequester(() => '{"tools":[]}');
    const { upstream } = new SharedNotices(server, true).view();
    expect((await upstream.request('tools/list', undefined, 1234, 'tools/list')).ok).toBe(true);
    upstream.notify('notifications/initialized', undefined);
    expect(server.asked).toEqual([{ method: 'tools/list', params: undefined, timeoutMs: 1234 }]);
    expect(server.notified).toEqual(['notifications/initialized']);
  });
});

describe('the front-door guards', () => {
  it('without them, the plan is the naive server: every interface, no checks, counted ids', () => {
    const plan = naiveFrontDoor();
    expect(plan).toMatchObject({ defaultHost: undefined, checkOrigin: false, checkHost: false, requireCredential: false, bindSessions: false, attributeLogs: false });
    expect([plan.sessionId(), plan.sessionId()]).toEqual(['1', '2']);
  });

  it('with them, loopback, both checks, the credential required, bound sessions and ids of 256 random bits', () => {
    const plan = planWithout();
    expect(plan).toMatchObject({ defaultHost: '127.0.0.1', checkOrigin: true, checkHost: true, requireCredential: true, bindSessions: true, attributeLogs: true });
    const ids = new Set(Array.from({ length: 100 }, () => plan.sessionId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(32);
  });
});

describe('the front door over HTTP', () => {
  it('opens a session at initialize and serves it, with its own credential only', async () => {
    const door = await open(planWithout());
    expect(door.url.hostname).toBe('127.0.0.1');
    const { reply, id } = await door.initialize({ authorization: 'Bearer agent' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { method: 'initialize' } });
    const own = await door.post('tools/list', { 'mcp-session-id': id!, authorization: 'Bearer agent' });
    expect(own.status).toBe(200);
    const other = await door.post('tools/list', { 'mcp-session-id': id!, authorization: 'Bearer intruder' });
    expect(other).toMatchObject({ status: 404 });
    expect(other.body).not.toContain('tools/list');
    expect(await door.post('tools/list', { 'mcp-session-id': `${id}x`, authorization: 'Bearer agent' })).toMatchObject({ status: 404 });
    expect(await door.post('tools/list', { authorization: 'Bearer agent' })).toMatchObject({ status: 400 });
  });

  it('gives each connection its own session', async () => {
    const door = await open(planWithout());
    const first = await door.initialize();
    const second = await door.initialize();
    expect(first.id).not.toBe(second.id);
    const answer = async (id: string) => (JSON.parse((await door.post('ping', { 'mcp-session-id': id })).body) as { result: { session: number } }).result.session;
    expect(await answer(first.id!)).not.toBe(await answer(second.id!));
  });

  it('refuses a foreign Origin and a foreign Host with 403, and serves a listed Origin and none', async () => {
    const door = await open(planWithout(), ['http://app.example']);
    expect((await door.initialize({ origin: 'http://evil.example' })).reply.status).toBe(403);
    expect((await door.initialize({ origin: 'null' })).reply.status).toBe(403);
    expect((await door.initialize({ host: `rebind.example:${door.port}` })).reply.status).toBe(403);
    expect((await door.initialize({ origin: 'http://app.example' })).reply.status).toBe(200);
    expect((await door.initialize({ host: `localhost:${door.port}` })).reply.status).toBe(200);
    expect((await door.initialize()).reply.status).toBe(200);
  });

  it('serves its own loopback origin under each loopback name, with the Host naming it likewise, and refuses it on another port', async () => {
    const door = await open(planWithout());
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const own = `${name}:${door.port}`;
      expect((await door.initialize({ origin: `http://${own}`, host: own })).reply.status, own).toBe(200);
    }
    expect((await door.initialize({ origin: `http://localhost:${door.port + 1}` })).reply.status).toBe(403);
    expect((await door.initialize({ origin: `http://rebind.example:${door.port}`, host: `rebind.example:${door.port}` })).reply.status).toBe(403);
    expect((await door.initialize({ origin: `http://localhost:${door.port}`, host: `rebind.example:${door.port}` })).reply.status).toBe(403);
  });

  it("with the operator's credential set, refuses every request without it with 401 before it acts, and serves it", async () => {
    const token = 'front-door-token-0123456789abcdef';
    const credential = readFrontDoorCredential({ [FRONT_DOOR_TOKEN_VARIABLE]: token })!;
    const made: number[] = [];
    const counted = stubSessions();
    const door = await open(planWithout(), [], (send) => (made.push(1), counted(send)), credential);
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token, `bearer ${token}`]) {
      const { reply, id } = await door.initialize(authorization === undefined ? {} : { authorization });
      expect(reply, String(authorization)).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer' } });
      expect(id).toBeUndefined();
      expect(reply.body).not.toContain(token);
    }
    expect(made).toHaveLength(0);
    const { reply, id } = await door.initialize({ authorization: `Bearer ${token}` });
    expect(reply.status).toBe(200);
    // The session's id without the credential is refused as any request is, before the session is looked for.
    expect(await door.post('ping', { 'mcp-session-id': id! })).toMatchObject({ status: 401 });
    expect(await door.send('GET', { 'mcp-session-id': id!, accept: 'text/event-stream' })).toMatchObject({ status: 401 });
    expect(await door.send('DELETE', { 'mcp-session-id': id! })).toMatchObject({ status: 401 });
    expect(await door.post('ping', { 'mcp-session-id': id!, authorization: `Bearer ${token}` })).toMatchObject({ status: 200 });
  });

  it('without front-door-credential, or with no credential set, serves a client presenting none', async () => {
    const credential = readFrontDoorCredential({ [FRONT_DOOR_TOKEN_VARIABLE]: 'front-door-token-0123456789abcdef' });
    expect((await (await open(planWithout('front-door-credential'), [], stubSessions(), credential)).initialize()).reply.status).toBe(200);
    expect((await (await open(planWithout())).initialize()).reply.status).toBe(200);
  });

  it("reads the operator's credential from its variable, and refuses one too short or a header cannot carry, naming the variable and not the value", () => {
    expect(readFrontDoorCredential({})).toBeUndefined();
    expect(readFrontDoorCredential({ [FRONT_DOOR_TOKEN_VARIABLE]: '' })).toBeUndefined();
    for (const bad of ['short-token', 'a token with spaces in it 0123', 'token\r\nx-injected: 0123456789']) {
      expect(() => readFrontDoorCredential({ [FRONT_DOOR_TOKEN_VARIABLE]: bad }), bad).toThrow(ConfigError);
      try {
        readFrontDoorCredential({ [FRONT_DOOR_TOKEN_VARIABLE]: bad });
      } catch (error) {
        expect((error as Error).message).toContain(FRONT_DOOR_TOKEN_VARIABLE);
        expect((error as Error).message).not.toContain(bad);
      }
    }
    const credential = readFrontDoorCredential({ [FRONT_DOOR_TOKEN_VARIABLE]: 'AbC-_.~+/0123456789abcdef==' })!;
    expect(credential.admits('Bearer AbC-_.~+/0123456789abcdef==')).toBe(true);
    expect(credential.admits('Bearer AbC-_.~+/0123456789abcdef=')).toBe(false);
    expect(credential.admits(undefined)).toBe(false);
  });

  it('without origin-check and host-check, serves them', async () => {
    const door = await open(planWithout('origin-check', 'host-check'));
    expect((await door.initialize({ origin: 'http://evil.example', host: 'rebind.example:1' })).reply.status).toBe(200);
  });

  it('ends a session by DELETE from its own credential only, and opens its stream', async () => {
    const door = await open(planWithout());
    const { id } = await door.initialize({ authorization: 'Bearer agent' });
    expect(await door.send('GET', { 'mcp-session-id': id!, authorization: 'Bearer agent', accept: 'text/event-stream' })).toMatchObject({ status: 200 });
    expect(await door.send('GET', { 'mcp-session-id': id!, authorization: 'Bearer intruder', accept: 'text/event-stream' })).toMatchObject({ status: 404 });
    expect(await door.send('DELETE', { 'mcp-session-id': id!, authorization: 'Bearer intruder' })).toMatchObject({ status: 404 });
    expect(await door.post('ping', { 'mcp-session-id': id!, authorization: 'Bearer agent' })).toMatchObject({ status: 200 });
    expect(await door.send('DELETE', { 'mcp-session-id': id!, authorization: 'Bearer agent' })).toMatchObject({ status: 204 });
    expect(await door.post('ping', { 'mcp-session-id': id!, authorization: 'Bearer agent' })).toMatchObject({ status: 404 });
  });

  it('bounds bodies and refuses what is not one JSON-RPC message', async () => {
    const door = await open(planWithout());
    const { id } = await door.initialize();
    expect(await door.send('POST', { 'mcp-session-id': id! }, 'x'.repeat(2000))).toMatchObject({ status: 413 });
    expect(await door.send('POST', { 'mcp-session-id': id! }, '[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({ status: 400 });
    expect(await door.send('POST', { 'mcp-session-id': id!, 'content-type': 'text/plain' }, '{}')).toMatchObject({ status: 415 });
    expect(await door.send('POST', { 'mcp-session-id': id! }, '{"jsonrpc":"2.0","method":"notifications/initialized"}')).toMatchObject({ status: 202 });
    expect(await door.send('PUT', { 'mcp-session-id': id! })).toMatchObject({ status: 405 });
    expect(await door.post('ping', { 'mcp-session-id': id!, 'mcp-protocol-version': '1999-01-01' })).toMatchObject({ status: 400 });
  });

  describe('each answer and refusal, exactly', () => {
    const TEXT = 'text/plain; charset=utf-8';
    const refusal = (status: number, why: string) => ({ status, body: `${why}\n`, headers: expect.objectContaining({ 'content-type': TEXT }) });

    it('refuses another path, a method it does not serve, a body that is not JSON and a protocol version it does not speak (with an UnsupportedProtocolVersionError when there is a request to answer)', async () => {
      const door = await open(planWithout());
      const { id } = await door.initialize();
      const inSession = { 'mcp-session-id': id! };
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
      expect(await door.send('POST', inSession, ping, { path: '/other' })).toMatchObject(refusal(404, 'Not Found'));
      expect(await door.send('POST', inSession, ping, { path: '/mcp?x=1' })).toMatchObject({ status: 200 });
      const put = await door.send('PUT', inSession);
      expect(put).toMatchObject(refusal(405, 'Method Not Allowed'));
      expect(put.headers.allow).toBe('GET, POST, DELETE');
      expect(await door.send('POST', { ...inSession, 'content-type': 'text/plain' }, ping)).toMatchObject(refusal(415, 'Unsupported Media Type: a POST carries application/json'));
      const unsupported = await door.post('ping', { ...inSession, 'mcp-protocol-version': '1999-01-01' });
      expect(unsupported).toMatchObject({ status: 400, headers: expect.objectContaining({ 'content-type': 'application/json' }) });
      expect(JSON.parse(unsupported.body)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: ERROR.unsupportedProtocolVersion, message: 'Unsupported protocol version: 1999-01-01', data: { supported: [...SERVED_VERSIONS], requested: '1999-01-01' } },
      });
      const notice = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (const [method, body] of [['POST', notice], ['GET', undefined]] as const) {
        expect(await door.send(method, { ...inSession, 'mcp-protocol-version': '1999-01-01', accept: 'text/event-stream' }, body)).toMatchObject(refusal(400, 'Bad Request: unsupported MCP-Protocol-Version "1999-01-01"'));
      }
      expect(await door.post('ping', { ...inSession, 'mcp-protocol-version': '2025-11-25' })).toMatchObject({ status: 200 });
    });

    it.each(SUPPORTED_PROTOCOL_VERSIONS)('accepts MCP-Protocol-Version %s, which the SDK still negotiates', async (version) => {
      const door = await open(planWithout());
      const { id } = await door.initialize();
      expect(await door.post('ping', { 'mcp-session-id': id!, 'mcp-protocol-version': version })).toMatchObject({ status: 200 });
    });

    it('answers a body of exactly the cap, and refuses one byte more, declared or sent in chunks', async () => {
      const door = await open(planWithout());
      const { id } = await door.initialize();
      const inSession = { 'mcp-session-id': id! };
      const sized = (bytes: number) => {
        const frame = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: '' } });
        return JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: 'x'.repeat(bytes - frame.length) } });
      };
      expect(await door.send('POST', inSession, sized(1024))).toMatchObject({ status: 200 });
      expect(await door.send('POST', inSession, sized(1025))).toMatchObject(refusal(413, 'Payload Too Large: over 1024 bytes'));
      // No content-length: the body is counted as it arrives.
      expect(await door.send('POST', { ...inSession, 'transfer-encoding': 'chunked' }, sized(1025))).toMatchObject(refusal(413, 'Payload Too Large: over 1024 bytes'));
      expect(await door.send('POST', { ...inSession, 'transfer-encoding': 'chunked' }, sized(1024))).toMatchObject({ status: 200 });
    });

    it('refuses a message that is not one JSON-RPC message as a JSON-RPC error with a null id', async () => {
      const door = await open(planWithout());
      const { id } = await door.initialize();
      const reply = await door.send('POST', { 'mcp-session-id': id! }, '[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('application/json');
      expect(JSON.parse(reply.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: expect.stringMatching(/^Invalid message: /) } });
    });

    it('refuses a request outside a session, in an unknown one, and an initialize sent inside one', async () => {
      const door = await open(planWithout());
      const { id } = await door.initialize();
      expect(await door.post('ping')).toMatchObject(refusal(400, 'Bad Request: Mcp-Session-Id header is required'));
      expect(await door.post('ping', { 'mcp-session-id': '' })).toMatchObject(refusal(400, 'Bad Request: Mcp-Session-Id header is required'));
      expect(await door.post('ping', { 'mcp-session-id': `${id}x` })).toMatchObject(refusal(404, 'Not Found: no such session'));
      expect(await door.post('initialize', { 'mcp-session-id': id! })).toMatchObject(refusal(400, 'Bad Request: initialize opens a session, it is not sent in one'));
    });

    it('answers as JSON, with the session id, to an agent that takes only JSON, and as an event stream to one that accepts one', async () => {
      const door = await open(planWithout());
      const { reply, id } = await door.initialize();
      expect(reply.headers['content-type']).toBe('application/json');
      expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 1, result: { session: 1, method: 'initialize' } });
      const streamed = await door.send('POST', { 'mcp-session-id': id!, accept: 'text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }), { readStream: true });
      expect(streamed.status).toBe(200);
      expect(streamed.headers['content-type']).toBe('text/event-stream');
      expect(streamed.headers['cache-control']).toBe('no-store');
      expect(streamed.body).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 5, result: { session: 1, method: 'ping' } })}\n\n`);
      const either = await door.send('POST', { 'mcp-session-id': id!, accept: 'application/json, text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }), { readStream: true });
      expect(either.headers['content-type']).toBe('text/event-stream');
      expect(either.body).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 6, result: { session: 1, method: 'ping' } })}\n\n`);
    });

    it("sends a request's progress on its own POST, as an event stream, before the answer; a JSON-only client and other tokens get none there", async () => {
      // A session that reports progress for the token its request carries, and for another, then answers.
      const progressing = (send: (line: string) => void) => ({
        session: {
          handleLine(line: string) {
            const message = JSON.parse(line) as { id?: unknown; params?: { _meta?: { progressToken?: unknown } } };
            if (message.id === undefined) return;
            const token = message.params?._meta?.progressToken;
            if (token !== undefined) send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 0, total: 1 } }));
            send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'someone-else', progress: 1 } }));
            send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
          },
        },
        end: () => {},
      });
      const door = await open(planWithout(), [], progressing);
      const { id } = await door.initialize();
      const call = (accept: string) =>
        door.send('POST', { 'mcp-session-id': id!, accept }, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't', _meta: { progressToken: 'p-1' } } }), { readStream: true });
      const streamed = await call('application/json, text/event-stream');
      expect(streamed.headers['content-type']).toBe('text/event-stream');
      expect(streamed.body).toBe(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p-1', progress: 0, total: 1 } })}\n\n` +
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} })}\n\n`,
      );
      const json = await call('application/json');
      expect(json.headers['content-type']).toBe('application/json');
      expect(JSON.parse(json.body)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    });

    it('opens a stream only for an agent that accepts one, and at most four per session', async () => {
      const door = await open(planWithout());
      const { id } = await door.initialize();
      expect(await door.send('GET', { 'mcp-session-id': id!, accept: 'application/json' })).toMatchObject(refusal(406, 'Not Acceptable: the stream is text/event-stream'));
      // Streams held open, as an agent holds them; each says it is open before any event.
      const held: ClientRequest[] = [];
      const openStream = () =>
        new Promise<{ status: number; type: string | undefined; cache: string | undefined; first: string }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: door.port, path: '/mcp', method: 'GET', headers: { 'mcp-session-id': id!, accept: 'text/event-stream' } }, (res) => {
            const head = { status: res.statusCode!, type: res.headers['content-type'], cache: res.headers['cache-control'] };
            res.once('data', (chunk: Buffer) => resolve({ ...head, first: chunk.toString('utf8') }));
            res.once('end', () => resolve({ ...head, first: '' }));
          });
          held.push(req);
          req.on('error', reject);
          req.end();
        });
      try {
        for (let i = 0; i < 4; i++) expect(await openStream()).toEqual({ status: 200, type: 'text/event-stream', cache: 'no-store', first: ': open\n\n' });
        expect(await openStream()).toEqual({ status: 409, type: TEXT, cache: undefined, first: 'Conflict: this session already has 4 streams open\n' });
      } finally {
        held.forEach((req) => req.destroy());
      }
    });

    it('names why it refuses a foreign Origin and a foreign Host', async () => {
      const door = await open(planWithout(), ['http://app.example']);
      expect((await door.initialize({ origin: 'http://evil.example' })).reply).toMatchObject(refusal(403, 'Forbidden: this Origin is not allowed'));
      expect((await door.initialize({ host: `rebind.example:${door.port}` })).reply).toMatchObject(refusal(403, 'Forbidden: the Host header does not name this broker'));
    });

    it(`opens at most ${MAX_SESSIONS} sessions, answering 503 past them`, async () => {
      const door = await open(planWithout());
      for (let i = 0; i < MAX_SESSIONS; i++) expect((await door.initialize()).reply.status).toBe(200);
      expect((await door.initialize()).reply).toMatchObject(refusal(503, 'Service Unavailable: too many sessions'));
    });

    /**
     * Sessions that leave a request of method "hold" unanswered, and otherwise send a notice of
     * their own before each answer; `held` counts the requests held.
     */
    function holdingSessions() {
      const held = { count: 0 };
      const sessions = (send: (line: string) => void) => ({
        session: {
          handleLine(line: string) {
            const message = JSON.parse(line) as { id?: unknown; method?: string };
            if (message.method === 'hold') held.count++;
            if (message.id === undefined || message.method === 'hold') return;
            send('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"before the answer"}}');
            send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
          },
        },
        end: () => {},
      });
      return { held, sessions };
    }

    it('refuses a request whose id a request of the same session still waits under', async () => {
      const { held, sessions } = holdingSessions();
      const door = await open(planWithout(), [], sessions);
      const { id } = await door.initialize();
      const hold = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'hold' });
      // Never answered: the door's close ends it.
      const waiting = door.send('POST', { 'mcp-session-id': id! }, hold).catch(() => undefined);
      await expect.poll(() => held.count).toBe(1);
      expect(await door.send('POST', { 'mcp-session-id': id! }, hold)).toMatchObject({
        status: 400,
        body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid message: the id 7 is already in use by a request of this session"}}',
      });
      expect(held.count).toBe(1);
      expect((await door.send('POST', { 'mcp-session-id': id! }, JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }))).status).toBe(200);
      doors.splice(0).forEach((door) => door.stop());
      await waiting;
    });

    it("sends what the session says of its own on the session's open stream, the answer on its POST", async () => {
      const door = await open(planWithout(), [], holdingSessions().sessions);
      const { id } = await door.initialize();
      let streamed = '';
      const stream = request({ host: '127.0.0.1', port: door.port, path: '/mcp', method: 'GET', headers: { 'mcp-session-id': id!, accept: 'text/event-stream' } }, (res) => {
        res.on('data', (chunk: Buffer) => (streamed += chunk.toString('utf8')));
      });
      stream.on('error', () => undefined);
      stream.end();
      try {
        await expect.poll(() => streamed).toBe(': open\n\n');
        const answered = await door.send('POST', { 'mcp-session-id': id! }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }));
        expect(answered.body).toBe('{"jsonrpc":"2.0","id":2,"result":{}}');
        await expect.poll(() => streamed).toBe(': open\n\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"before the answer"}}\n\n');
      } finally {
        stream.destroy();
      }
    });

    it('says where it listens, and refuses a port it cannot listen on, naming it', async () => {
      const first = new FrontDoor({ listen: { host: '127.0.0.1', port: 0 }, allowedOrigins: [], plan: planWithout(), maxBodyBytes: 1024, session: stubSessions() });
      const url = await first.listen();
      doors.push({ stop: () => first.close() });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const port = Number(new URL(url).port);
      const second = new FrontDoor({ listen: { host: '127.0.0.1', port }, allowedOrigins: [], plan: planWithout(), maxBodyBytes: 1024, session: stubSessions() });
      await expect(second.listen()).rejects.toThrow(new ConfigError(`cannot listen on 127.0.0.1 port ${port}: EADDRINUSE`));
      const v6 = new FrontDoor({ listen: { host: '::1', port: 0 }, allowedOrigins: [], plan: planWithout(), maxBodyBytes: 1024, session: stubSessions() });
      const shown = await v6.listen().catch((err: Error) => err.message);
      doors.push({ stop: () => v6.close() });
      // Where the machine has IPv6 loopback, the address is bracketed in the URL.
      expect(shown).toMatch(/^(http:\/\/\[::1\]:\d+\/mcp|cannot listen on ::1 port 0: \w+)$/);
    });
  });
});
