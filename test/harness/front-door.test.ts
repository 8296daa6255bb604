// The harness's side of the front-door scenarios: reading listening sockets from /proc, the raw
// clients' guesses and decoding, and the judges of the `http` and `listens` expectations.

import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withCredential } from '../../harness/agent/credential.js';
import { FrontDoorClients, guessedFrom, messagesIn } from '../../harness/agent/front-door-clients.js';
import agentSession from '../../harness/expect/http/agent-session.js';
import answered, { served } from '../../harness/expect/http/answered.js';
import receivedExcludes from '../../harness/expect/http/received-excludes.js';
import serverReceived from '../../harness/expect/http/server-received.js';
import status from '../../harness/expect/http/status.js';
import togetherReceived from '../../harness/expect/http/together-received.js';
import listens from '../../harness/expect/start/listens.js';
import type { Expectation, HttpExchange, HttpFacts, Judged, StartFacts } from '../../harness/expect/types.js';
import type { HttpExpectation, StartExpectation } from '../../harness/scenario/types.js';
import { decodeAddress, groupListeners, isLoopback, listeningIn } from '../../harness/observe/listeners.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';

const exchange = (what: string, status: number | null, body = '', contentType = 'application/json'): HttpExchange => ({ what, status, contentType, body, messages: messagesIn(body, contentType) });
const RESULT = '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search_notes"}]}}';

function httpFacts(exchanges: HttpExchange[], extra: Partial<HttpFacts> = {}): HttpFacts {
  return { label: '3:http', mark: 0, end: 2, step: { client: 'other', request: 'list', expect: {} }, exchanges, ...extra };
}

function findings<E>(module: Expectation, expect: E, facts: unknown, records: LedgerRecord[] = []): string[] {
  const found: string[] = [];
  const judged = { records, kind: 'attack', spec: {} } as unknown as Judged;
  module.judge(expect as never, facts as never, judged, (check) => found.push(check));
  return found;
}

describe('/proc listening sockets', () => {
  it('decodes IPv4 and IPv6 addresses as the kernel writes them', () => {
    expect(decodeAddress('0100007F')).toBe('127.0.0.1');
    expect(decodeAddress('00000000')).toBe('0.0.0.0');
    expect(decodeAddress('00000000000000000000000000000000')).toBe('::');
    expect(decodeAddress('00000000000000000000000001000000')).toBe('::1');
    expect(decodeAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
  });

  it('tells loopback from every interface', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address), address).toBe(true);
    for (const address of ['0.0.0.0', '::', '10.0.0.5', '::ffff:10.0.0.5']) expect(isLoopback(address), address).toBe(false);
  });

  it('reads only LISTEN rows, by inode', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0',
      '   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 222 1 0',
    ].join('\n');
    expect([...listeningIn(table)]).toEqual([['111', { address: '127.0.0.1', port: 8080 }]]);
  });

  it("finds this process group's own listener and its address", async () => {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect(groupListeners(pgid)).toContainEqual({ address: '127.0.0.1', port, pid: process.pid });
    } finally {
      server.close();
    }
  });
});

describe('the raw clients', () => {
  it('guess the id before their own', () => {
    expect(guessedFrom('2')).toBe('1');
    expect(guessedFrom('s-10')).toBe('s-9');
    expect(guessedFrom('007x')).toBe('006x');
    expect(guessedFrom('abc')).toBe('abA');
    expect(guessedFrom('0')).toBe('A');
  });

  it("send the front door's credential only when the step says the client holds it, in place of a header of its name", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const door = {
        url: `http://127.0.0.1:${port}/mcp`,
        sessionId: () => 'agent-session',
        headers: withCredential({ authorization: 'Bearer agent-own' }, { header: 'X-Front-Door-Key', value: 'key-1' }),
        credential: { header: 'X-Front-Door-Key', value: 'key-1' },
      };
      const clients = new FrontDoorClients(door, 5_000);
      const sent = async (step: Parameters<FrontDoorClients['run']>[0]) => {
        seen.length = 0;
        await clients.run(step);
        return seen[0]!;
      };
      const page = await sent({ client: 'page', request: 'initialize', credential: 'agent', headers: { origin: 'http://evil.example', 'x-front-door-key': 'its-own' }, expect: {} });
      expect(page).toMatchObject({ origin: 'http://evil.example', 'x-front-door-key': 'key-1' });
      expect(page.authorization).toBeUndefined();
      const other = await sent({ client: 'other', request: 'list', headers: { authorization: 'Bearer other' }, expect: {} });
      expect(other).toMatchObject({ authorization: 'Bearer other' });
      expect(other['x-front-door-key']).toBeUndefined();
      expect(await sent({ client: 'agent', request: 'ping', expect: {} })).toMatchObject({ authorization: 'Bearer agent-own', 'x-front-door-key': 'key-1', 'mcp-session-id': 'agent-session' });
      const bare = await sent({ client: 'agent', request: 'ping', credential: 'none', expect: {} });
      expect([bare.authorization, bare['x-front-door-key'], bare['mcp-session-id']]).toEqual([undefined, undefined, 'agent-session']);
      // A front door without a credential: holding it sends nothing more.
      const plain = new FrontDoorClients({ ...door, headers: {}, credential: undefined }, 5_000);
      seen.length = 0;
      await plain.run({ client: 'page', request: 'list', credential: 'agent', expect: {} });
      expect(seen[0]!['x-front-door-key']).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('speak 2026-07-28 in a case of that revision: _meta in the body, the headers mirroring it, and a step header of a mirrored name in their place', async () => {
    const seen: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(400).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const door = { url: `http://127.0.0.1:${port}/mcp`, sessionId: () => undefined, headers: {}, credential: undefined };
      const clients = new FrontDoorClients(door, 5_000, '2026-07-28');
      await clients.run({ client: 'agent', request: 'call', tool: 'search_notes', arguments: { region: 'us-west1' }, headers: { 'mcp-param-region': 'eu-central1' }, expect: {} });
      const [sent] = seen;
      expect(sent!.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_notes', 'mcp-param-region': 'eu-central1' });
      expect(sent!.headers['mcp-session-id']).toBeUndefined();
      expect(JSON.parse(sent!.body)).toMatchObject({ method: 'tools/call', params: { name: 'search_notes', arguments: { region: 'us-west1' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
    } finally {
      server.close();
    }
  });

  it('put a credential in place of a header of its name, whatever its case', () => {
    expect(withCredential({ Authorization: 'Bearer mine', origin: 'o' }, { header: 'authorization', value: 'Bearer door' })).toEqual({ origin: 'o', authorization: 'Bearer door' });
    expect(withCredential({ origin: 'o' }, undefined)).toEqual({ origin: 'o' });
  });

  it('read the messages of a JSON body and of an event stream', () => {
    expect(messagesIn(RESULT, 'application/json')).toHaveLength(1);
    expect(messagesIn(`event: message\ndata: ${RESULT}\n\ndata: {"jsonrpc":"2.0","method":"x"}\n\n`, 'text/event-stream')).toHaveLength(2);
    expect(messagesIn('Not Found', 'text/plain')).toEqual([]);
  });
});

describe('the http expectations', () => {
  it('served: a result to a POST, an open stream to a GET, a 2xx to a DELETE', () => {
    expect(served(exchange('POST tools/list', 200, RESULT))).toBe(true);
    expect(served(exchange('POST tools/list', 200, '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}'))).toBe(false);
    expect(served(exchange('POST tools/list', 404, RESULT))).toBe(false);
    expect(served(exchange('GET stream', 200, '', 'text/event-stream'))).toBe(true);
    expect(served(exchange('GET stream', 405, ''))).toBe(false);
    expect(served(exchange('DELETE session', 204))).toBe(true);
    expect(served(exchange('DELETE session', null))).toBe(false);
  });

  it('answered: the harm of serving whom the broker should refuse, the benign use of serving whom it should not', () => {
    const refused = httpFacts([exchange('POST tools/list', 404, 'Not Found', 'text/plain')]);
    const servedFacts = httpFacts([exchange('POST tools/list', 200, RESULT)]);
    expect(findings(answered, { answered: false }, refused)).toEqual([]);
    expect(findings(answered, { answered: false }, servedFacts)).toEqual(['http.unanswered']);
    expect(findings(answered, { answered: true }, servedFacts)).toEqual([]);
    expect(findings(answered, { answered: true }, refused)).toEqual(['http.answered']);
    expect(answered.checksFor?.({ answered: false } as HttpExpectation)).toEqual(['http.unanswered']);
  });

  it('answered: true admits what a server may answer every client alike (405 to a GET or DELETE it does not offer, 409 to a second stream), nothing else', () => {
    for (const notOffered of [exchange('GET stream', 405), exchange('DELETE session', 405), exchange('GET stream', 409)]) {
      expect(findings(answered, { answered: true }, httpFacts([notOffered]))).toEqual([]);
      // Nothing was served, so to a client that should be refused it is no harm either.
      expect(findings(answered, { answered: false }, httpFacts([notOffered]))).toEqual([]);
    }
    for (const refused of [exchange('POST tools/list', 405), exchange('DELETE session', 409), exchange('GET stream', 403), exchange('DELETE session', 404)]) {
      expect(findings(answered, { answered: true }, httpFacts([refused]))).toEqual(['http.answered']);
    }
  });

  it('status is judged on the step\'s own request, the last exchange', () => {
    const facts = httpFacts([exchange('POST notifications/initialized', 202), exchange('POST initialize', 403)]);
    expect(findings(status, { status: 403 }, facts)).toEqual([]);
    expect(findings(status, { status: [400, 404] }, facts)).toEqual(['http.status']);
    expect(findings(status, { status: 403 }, httpFacts([exchange('POST ping', null)]))).toEqual(['http.status']);
  });

  it('received_excludes reads every body of the step', () => {
    const facts = httpFacts([exchange('POST initialize', 200, '{}'), exchange('POST tools/list', 200, RESULT)]);
    expect(findings(receivedExcludes, { received_excludes: ['search_notes'] }, facts)).toEqual(['http.received_excludes']);
    expect(findings(receivedExcludes, { received_excludes: ['write_note'] }, facts)).toEqual([]);
  });

  it("server_received counts the step's tools/call in the ledger", () => {
    const call = { ev: 'recv', method: 'tools/call' } as LedgerRecord;
    const list = { ev: 'recv', method: 'tools/list' } as LedgerRecord;
    expect(findings(serverReceived, { server_received: 0 }, httpFacts([]), [list, list])).toEqual([]);
    expect(findings(serverReceived, { server_received: 0 }, httpFacts([]), [call, list])).toEqual(['http.server_received']);
    expect(findings(serverReceived, { server_received: 1 }, httpFacts([]), [list, list])).toEqual(['http.server_reached']);
    // Outside the step's span, a call is another step's.
    expect(findings(serverReceived, { server_received: 0 }, httpFacts([]), [list, list, call])).toEqual([]);
  });

  it("agent_session compares what the ping in the agent's session found", () => {
    expect(findings(agentSession, { agent_session: 'alive' }, httpFacts([], { agentSession: 'alive' }))).toEqual([]);
    expect(findings(agentSession, { agent_session: 'alive' }, httpFacts([], { agentSession: 'ended' }))).toEqual(['http.agent_session_alive']);
    expect(findings(agentSession, { agent_session: 'ended' }, httpFacts([], { agentSession: 'alive' }))).toEqual(['http.agent_session_ended']);
    // A broker that lets no client end a session (DELETE 405) refused the agent nothing.
    expect(findings(agentSession, { agent_session: 'ended' }, httpFacts([exchange('DELETE session', 405)], { agentSession: 'alive' }))).toEqual([]);
    expect(findings(agentSession, { agent_session: 'ended' }, httpFacts([exchange('DELETE session', 404)], { agentSession: 'alive' }))).toEqual(['http.agent_session_ended']);
    expect(findings(agentSession, { agent_session: 'alive' }, httpFacts([exchange('DELETE session', 405)], { agentSession: 'ended' }))).toEqual(['http.agent_session_alive']);
  });

  it("together_received: each client's own answer and progress, and with own-only nothing of the other's", () => {
    const step = {
      client: 'alice', request: 'call', tool: 'search_notes', arguments: { query: 'alice-q' }, progress_token: 'alice-t',
      together: { client: 'bob', arguments: { query: 'bob-q' }, progress_token: 'bob-t' }, expect: {},
    } as const;
    const stream = (...events: unknown[]) => exchange('GET stream', 200, events.map((event) => `event: message\ndata: ${JSON.stringify(event)}\n\n`).join(''), 'text/event-stream');
    const progress = (token: string, query: string) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, message: `for ${query}` } });
    const log = (query: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { data: `for ${query}` } });
    const answer = (query: string) => exchange('POST tools/call search_notes', 200, JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: `Found 3 notes for ${query}.` }] } }));
    const facts = (alice: HttpExchange[], bob: HttpExchange[]) => httpFacts(alice, { step: step as never, together: { alice, bob } });
    const own = facts([stream(progress('alice-t', 'alice-q')), answer('alice-q')], [stream(progress('bob-t', 'bob-q')), answer('bob-q')]);
    expect(findings(togetherReceived, { together_received: 'own-only' }, own)).toEqual([]);
    // Bob's log line in Alice's stream: harm under own-only, nothing under own.
    const leaked = facts([stream(progress('alice-t', 'alice-q'), log('bob-q')), answer('alice-q')], [stream(progress('bob-t', 'bob-q')), answer('bob-q')]);
    expect(findings(togetherReceived, { together_received: 'own-only' }, leaked)).toEqual(['http.own_only']);
    expect(findings(togetherReceived, { together_received: 'own' }, leaked)).toEqual([]);
    // Answers swapped, and Bob's progress missing: both clients' answers are wrong, and Bob had no progress.
    const swapped = facts([stream(progress('alice-t', 'alice-q')), answer('bob-q')], [stream(), answer('alice-q')]);
    expect(findings(togetherReceived, { together_received: 'own-only' }, swapped)).toEqual(['http.own_answered', 'http.own_only', 'http.own_answered', 'http.own_progress', 'http.own_only']);
  });
});

describe('listens: loopback', () => {
  const facts = (listeners: StartFacts['listeners']): StartFacts => ({ label: '2:start', mark: 0, end: 0, answer: { kind: 'closed' }, canExplain: false, pgid: 1, listeners } as StartFacts);
  const expect_ = { outcome: 'ready', listens: 'loopback' } as StartExpectation;

  it('fails on any socket bound off loopback, and needs one socket found', () => {
    expect(findings(listens, expect_, facts([{ address: '127.0.0.1', port: 1, pid: 2 }]))).toEqual([]);
    expect(findings(listens, expect_, facts([{ address: '127.0.0.1', port: 1, pid: 2 }, { address: '::', port: 1, pid: 2 }]))).toEqual(['start.listens_loopback']);
    expect(findings(listens, expect_, facts([]))).toEqual(['start.listens_found']);
  });
});
