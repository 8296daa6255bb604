// The broker's own HTTP front door: MCP's Streamable HTTP transport (revision 2025-11-25), server
// side, at one endpoint. Each POST carries one JSON-RPC message; a request is answered in the
// response's body (an event stream to a client that accepts one, carrying the request's progress
// before the answer; JSON to one that accepts only JSON), anything else with 202. initialize opens a session of its own, a Session like the stdio one, named by the
// Mcp-Session-Id header on every later request; GET opens a stream of that session, which carries
// what the Session sends of its own accord (a server's requests and notices, as it relays them),
// and DELETE ends it. Before anything is
// read, the front-door guards judge where the request comes from (Host, Origin) and whether it
// carries the operator's credential, when one is set; bodies, sessions and streams are bounded. Nothing of a request's headers reaches the Session, so the agent's
// credential to the broker cannot reach a server. A client of revision 2026-07-28 has no session:
// each of its POSTs is checked against its headers and answered by a Session of its own
// (`perRequest` below).

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../errors.js';
import type { FrontDoorPlan } from '../guards/front-door.js';
import type { FrontDoorCredential } from './credential.js';
import { SERVED_VERSIONS, isSupportedProtocolVersion } from '../session/identity.js';
import { ERROR, brokerError, errorLine, parseMessage, type Message, type Unreadable } from '../wire/jsonrpc.js';
import { member, plain, stringValue } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import type { Session } from '../session/session.js';
import type { JsonValue } from '../types.js';
import { isOwnOrigin, namesListener, type ListenAddress } from './address.js';
import { SessionTable, digestOf } from './sessions.js';
import { headerMismatch, paramHeaderMismatch } from './per-request.js';
import type { ParamHeader } from '../schema/param-headers.js';
import { META, PER_REQUEST_REVISION, readRequestRevision, unsupportedVersion } from '../wire/revision.js';
import { InputHandles } from '../session/input-required.js';

/** The one path the front door serves. */
export const ENDPOINT = '/mcp';
/** Bound on receiving a request's headers and body. */
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_HEADERS = 64;
/** A client may hold several streams of a session open (MCP's transport); each holds a socket. */
const MAX_STREAMS_PER_SESSION = 4;

export interface FrontDoorOptions {
  readonly listen: ListenAddress;
  /** The origins the operator lets a browser page reach the broker from, as URL serialises them. */
  readonly allowedOrigins: readonly string[];
  readonly plan: FrontDoorPlan;
  /** The credential the operator set for the front door (`readFrontDoorCredential`), if any. */
  readonly credential?: FrontDoorCredential;
  /** Bound on a POST body: the same as on a line over stdio. */
  readonly maxBodyBytes: number;
  /**
   * A Session for a new agent connection, answering through `send`, and what ends it; `handles`,
   * when given, are the multi round-trip handles it shares with the other Sessions of its credential.
   */
  readonly session: (send: (line: string) => void, handles?: InputHandles) => { readonly session: AgentSession; readonly end: () => void };
  /** The `x-mcp-header` annotations of the schema a tool is offered with, by the name the agent calls it; none when absent. */
  readonly paramHeaders?: (name: string) => readonly ParamHeader[] | undefined;
}

/**
 * A POST waiting for its answer: how the answer goes out, how a message about the request goes out
 * before it (on the POST's own event stream), and the progress token the request carries (JSON
 * text), if any.
 */
interface Waiting {
  /** `message` is `line` read. */
  readonly answer: (line: string, message: Message | Unreadable) => void;
  readonly before: (line: string) => void;
  readonly progressToken: string | undefined;
}

/** One agent connection: its Session, the POSTs waiting for an answer by request id, its GET streams. */
interface Connection {
  readonly session: AgentSession;
  /** Lets go of what the Session holds beyond the connection (its listeners on the server). */
  readonly end: () => void;
  readonly waiting: Map<string, Waiting>;
  readonly streams: Set<ServerResponse>;
}

const SESSION_HEADER = 'mcp-session-id';

/** 2026-07-28 POSTs answered at once, each by a Session of its own: past this, 503. */
const MAX_PER_REQUEST_POSTS = 64;
/** Credentials whose multi round-trip handles are kept at once; one more forgets the oldest's. */
const MAX_CREDENTIALS_KEPT = 16;

/** What the front door needs of a Session: a message in; its answers come out through `send`. */
export type AgentSession = Pick<Session, 'handleLine'>;

function refuse(res: ServerResponse, status: number, why: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(`${why}\n`);
}

/** A JSON-RPC error for a body that held no readable message; its id is null. */
function refuseMessage(res: ServerResponse, code: number, problem: string): void {
  res.writeHead(400, { 'content-type': 'application/json' }).end(errorLine(plain(null), brokerError(code, `Invalid message: ${problem}`)));
}

/** The body, or undefined once more than `cap` bytes came (the request is then answered 413, and its connection closed). */
function readBody(req: IncomingMessage, cap: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        // Nothing more is read. Destroying the request here would take the socket before the 413
        // is written; the refusal closes the connection once it is sent.
        req.pause();
        req.removeAllListeners('data');
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The request id an answer is for, as its JSON text: the key its POST waits under. */
function answerKey(message: Message | Unreadable): string | undefined {
  return message.kind === 'result' || message.kind === 'error' ? writeJson(message.id) : undefined;
}

const event = (line: string) => `event: message\ndata: ${line}\n\n`;

/**
 * How a POST is answered: to a client that accepts an event stream, as one (as the SDK's own
 * server answers), carrying what comes about the request before its answer (its progress), then
 * the answer; to a client that accepts only JSON, as JSON, with nothing before it. Progress must
 * arrive before the answer on a stream the client already reads: a client drops progress for a
 * request it has its answer to, and the session's GET stream may not be open yet, or at all.
 *
 * A 2026-07-28 request the broker does not serve is answered 404 (basic/transports/
 * streamable-http.mdx, "Protocol Version Header"): its stream's head waits for the end of this
 * turn of the event loop, by which the Session has answered a method it does not know, and then
 * goes out, so a long call's client has its head at once still.
 */
function post(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, perRequest: boolean): Pick<Waiting, 'answer' | 'before'> {
  const streams = (req.headers.accept ?? '').includes('text/event-stream');
  let opened = false;
  const open = () => {
    if (opened || !streams) return;
    opened = true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', ...headers });
    // Sent now, not with the first event: a client waiting on a long call knows it is being served.
    res.flushHeaders();
  };
  if (perRequest) setImmediate(open);
  else open();
  return {
    before(line) {
      // A client that takes JSON only has nowhere to read it before its answer.
      if (!streams) return;
      open();
      res.write(event(line));
    },
    answer(line, message) {
      if (!opened && perRequest && isErrorOf(message, ERROR.methodNotFound)) {
        opened = true;
        res.writeHead(404, { 'content-type': 'application/json', ...headers }).end(line);
        return;
      }
      open();
      if (streams) res.end(event(line));
      else res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(line);
    },
  };
}

/** Whether a message is an error answer with this code. */
function isErrorOf(message: Message | Unreadable, code: number): boolean {
  const given = message.kind === 'error' ? member(message.error, 'code') : undefined;
  return given?.kind === 'number' && given.text === String(code);
}

/** `params.progressToken` (of a progress notification), as JSON text; undefined when absent. */
function tokenIn(params: JsonValue | undefined): string | undefined {
  const token = params?.kind === 'object' ? member(params, 'progressToken') : undefined;
  return token === undefined ? undefined : writeJson(token);
}

/** The progress token a request's `_meta` carries, as JSON text; undefined when it carries none. */
function progressTokenOf(params: JsonValue | undefined): string | undefined {
  return tokenIn(params?.kind === 'object' ? member(params, '_meta') : undefined);
}

/** The POST a progress notification is about: the waiting one whose request carries its token. */
function progressFor(message: Message | Unreadable, waiting: ReadonlyMap<string, Waiting>): Waiting | undefined {
  if (message.kind !== 'notification' || message.method !== 'notifications/progress') return undefined;
  const token = tokenIn(message.params);
  return token === undefined ? undefined : [...waiting.values()].find((waiter) => waiter.progressToken === token);
}

export class FrontDoor {
  private readonly sessions: SessionTable<Connection>;
  private readonly origins: ReadonlySet<string>;
  /** The multi round-trip handles of 2026-07-28 clients, by the credential they presented. */
  private readonly handles = new Map<string, InputHandles>();
  private perRequestInFlight = 0;
  private port = 0;
  private server: Server | undefined;

  constructor(private readonly options: FrontDoorOptions) {
    this.sessions = new SessionTable(options.plan.sessionId, options.plan.bindSessions);
    this.origins = new Set(options.allowedOrigins);
  }

  /** Listens, and settles once the listener is up with the URL it serves; throws a ConfigError when it cannot listen. */
  async listen(): Promise<string> {
    const { listen, plan } = this.options;
    const host = listen.host ?? plan.defaultHost;
    // Loaded here: a broker serving its agent on stdio never needs the module at all.
    const server = process.getBuiltinModule('node:http').createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS }, (req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) refuse(res, 500, 'internal error');
        else res.destroy();
      });
    });
    server.maxHeadersCount = MAX_HEADERS;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => reject(new ConfigError(`cannot listen on ${host ?? 'every interface'} port ${listen.port}: ${err.code ?? err.message}`)));
      server.listen({ port: listen.port, ...(host === undefined ? {} : { host }) }, resolve);
    });
    this.port = (server.address() as AddressInfo).port;
    const shown = host === undefined ? 'every interface' : host.includes(':') ? `[${host}]` : host;
    return `http://${shown}:${this.port}${ENDPOINT}`;
  }

  /** Stops listening and drops every connection, streams included. */
  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { plan } = this.options;
    // Judged before anything is read: a request from the wrong place learns nothing, not even
    // whether the path exists.
    const host = this.options.listen.host ?? plan.defaultHost;
    if (plan.checkHost && !namesListener(req.headers.host, host, this.port)) {
      refuse(res, 403, 'Forbidden: the Host header does not name this broker');
      return;
    }
    const origin = req.headers.origin;
    // No Origin is a client that is not a browser page (MCP's transport: servers MUST validate Origin when present).
    if (plan.checkOrigin && origin !== undefined && !this.origins.has(origin) && !isOwnOrigin(origin, host, this.port)) {
      refuse(res, 403, 'Forbidden: this Origin is not allowed');
      return;
    }
    // A client without the operator's credential is anyone on this machine: it learns nothing either.
    if (plan.requireCredential && this.options.credential !== undefined && !this.options.credential.admits(req.headers.authorization)) {
      refuse(res, 401, 'Unauthorized: this broker requires its credential', { 'www-authenticate': 'Bearer' });
      return;
    }
    if ((req.url ?? '').split('?')[0] !== ENDPOINT) {
      refuse(res, 404, 'Not Found');
      return;
    }
    const version = req.headers['mcp-protocol-version'];
    if (version === PER_REQUEST_REVISION) return this.perRequest(req, res, version);
    if (typeof version === 'string' && !isSupportedProtocolVersion(version)) return this.unsupported(req, res, version);
    if (req.method === 'POST') return this.post(req, res);
    if (req.method === 'GET') return this.stream(req, res);
    if (req.method === 'DELETE') return this.end(req, res);
    refuse(res, 405, 'Method Not Allowed', { allow: 'GET, POST, DELETE' });
  }

  /**
   * A request of a 2026-07-28 client: no session, no GET stream, no DELETE (405); each POST
   * carries one request whose headers must mirror its body (src/front-door/per-request.ts) and is
   * answered by a Session of its own, ended with its answer. What must outlive one POST, the
   * handles of multi round-trip calls (src/session/input-required.ts), is kept per credential
   * presented: the nearest thing to an agent's session this revision has. A notification is
   * accepted and acts on nothing (the revision defines none a client sends over HTTP); a response
   * is refused, as is any session id header's meaning (it is ignored).
   */
  private async perRequest(req: IncomingMessage, res: ServerResponse, version: string): Promise<void> {
    if (req.method !== 'POST') {
      refuse(res, 405, 'Method Not Allowed: a 2026-07-28 client only POSTs', { allow: 'POST' });
      return;
    }
    const message = await this.readMessage(req, res);
    if (message === undefined) return;
    if (message.message.kind === 'notification') {
      res.writeHead(202).end();
      return;
    }
    if (message.message.kind !== 'request') {
      refuseMessage(res, ERROR.invalidRequest, 'a client sends requests and notifications, not responses');
      return;
    }
    // A required per-request field missing is a malformed request, whatever the headers say (basic/index.mdx).
    const revision = readRequestRevision(message.message.params);
    const malformed = revision.kind === 'handshake' ? `${META.protocolVersion} is required` : revision.kind === 'malformed' ? revision.problem : undefined;
    if (malformed !== undefined) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(errorLine(message.message.id, brokerError(ERROR.invalidParams, `Invalid params: ${malformed}`)));
      return;
    }
    const mismatch = headerMismatch(req.headers, message.message, version) ?? this.paramMismatch(req, message.message);
    if (mismatch !== undefined) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(errorLine(message.message.id, brokerError(ERROR.headerMismatch, `Header mismatch: ${mismatch}`)));
      return;
    }
    if (this.perRequestInFlight >= MAX_PER_REQUEST_POSTS) {
      refuse(res, 503, `Service Unavailable: ${MAX_PER_REQUEST_POSTS} requests in flight already`);
      return;
    }
    this.perRequestInFlight += 1;
    const connection = this.connect(this.handlesFor(req.headers.authorization));
    res.once('close', () => {
      this.perRequestInFlight -= 1;
      connection.end();
    });
    this.request(req, res, connection, message.message, message.body, {}, true);
  }

  /** What is wrong with a 2026-07-28 call's `Mcp-Param-*` headers, for the tool it names (per-request.ts). */
  private paramMismatch(req: IncomingMessage, message: Extract<Message, { kind: 'request' }>): string | undefined {
    if (message.method !== 'tools/call' || message.params?.kind !== 'object') return undefined;
    const name = stringValue(member(message.params, 'name'));
    const annotated = name === undefined ? undefined : this.options.paramHeaders?.(name);
    return annotated === undefined ? undefined : paramHeaderMismatch(req.headers, message, annotated);
  }

  /** The multi round-trip handles of the credential presented (none is a credential too), a bounded number of credentials kept. */
  private handlesFor(authorization: string | undefined): InputHandles {
    const key = digestOf(authorization).toString('hex');
    const kept = this.handles.get(key);
    if (kept !== undefined) return kept;
    if (this.handles.size >= MAX_CREDENTIALS_KEPT) this.handles.delete(this.handles.keys().next().value!);
    const made = new InputHandles();
    this.handles.set(key, made);
    return made;
  }

  /** A POST's one message and its body; undefined when the POST was answered already (its media type, size or message refused). */
  private async readMessage(req: IncomingMessage, res: ServerResponse): Promise<{ message: Message; body: string } | undefined> {
    if (!(req.headers['content-type'] ?? '').includes('application/json')) {
      refuse(res, 415, 'Unsupported Media Type: a POST carries application/json');
      return undefined;
    }
    const body = await readBody(req, this.options.maxBodyBytes);
    if (body === undefined) {
      this.tooLarge(res);
      return undefined;
    }
    const message = parseMessage(body);
    if (message.kind === 'unreadable') {
      refuseMessage(res, message.code, message.problem);
      return undefined;
    }
    return { message, body };
  }

  /** A body past the bound: refused, and its connection closed, since the rest of it is not read. */
  private tooLarge(res: ServerResponse): void {
    refuse(res, 413, `Payload Too Large: over ${this.options.maxBodyBytes} bytes`, { connection: 'close' });
  }

  /**
   * The connection a request names by its session id and credential; undefined when it was
   * answered: 400 without an id, 404 for an id that names no live session of this credential,
   * the same answer whether the id was never given, has ended or is another credential's.
   */
  private connection(req: IncomingMessage, res: ServerResponse): { id: string; connection: Connection } | undefined {
    const id = req.headers[SESSION_HEADER];
    if (typeof id !== 'string' || id === '') {
      refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const connection = this.sessions.find(id, req.headers.authorization);
    if (connection === undefined) {
      refuse(res, 404, 'Not Found: no such session');
      return undefined;
    }
    return { id, connection };
  }

  private async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await this.readMessage(req, res);
    if (read === undefined) return;
    const { message, body } = read;
    if (message.kind === 'request' && message.method === 'initialize') {
      if (req.headers[SESSION_HEADER] !== undefined) {
        refuse(res, 400, 'Bad Request: initialize opens a session, it is not sent in one');
        return;
      }
      const opened = this.sessions.open(req.headers.authorization, () => this.connect());
      if (opened === undefined) {
        refuse(res, 503, 'Service Unavailable: too many sessions');
        return;
      }
      this.request(req, res, opened.state, message, body, { [SESSION_HEADER]: opened.id });
      return;
    }
    const named = this.connection(req, res);
    if (named === undefined) return;
    if (message.kind !== 'request') {
      named.connection.session.handleLine(body);
      res.writeHead(202).end();
      return;
    }
    this.request(req, res, named.connection, message, body, {});
  }

  /**
   * A request in a protocol version the broker does not serve: 400 and, when the POST carries a
   * request to answer, an UnsupportedProtocolVersionError naming the versions it does serve
   * (basic/transports/streamable-http.mdx, "Protocol Version Header"); a plain 400 otherwise.
   */
  private async unsupported(req: IncomingMessage, res: ServerResponse, version: string): Promise<void> {
    const json = req.method === 'POST' && (req.headers['content-type'] ?? '').includes('application/json');
    const body = json ? await readBody(req, this.options.maxBodyBytes) : undefined;
    if (json && body === undefined) {
      this.tooLarge(res);
      return;
    }
    const message = body === undefined ? undefined : parseMessage(body);
    if (message?.kind !== 'request') {
      refuse(res, 400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end(errorLine(message.id, unsupportedVersion(ERROR.unsupportedProtocolVersion, version, SERVED_VERSIONS)));
  }

  /** Hands a request to its Session; the POST is answered with the answer to that id. */
  private request(req: IncomingMessage, res: ServerResponse, connection: Connection, message: Extract<Message, { kind: 'request' }>, body: string, headers: Record<string, string>, perRequest = false): void {
    const key = writeJson(message.id);
    if (connection.waiting.has(key)) {
      refuseMessage(res, ERROR.invalidRequest, `the id ${key} is already in use by a request of this session`);
      return;
    }
    connection.waiting.set(key, { ...post(req, res, headers, perRequest), progressToken: progressTokenOf(message.params) });
    // A client that went away gets nothing: its answer, when it comes, is dropped.
    res.once('close', () => connection.waiting.delete(key));
    connection.session.handleLine(body);
  }

  /**
   * A new connection. What its Session sends is an answer to a waiting POST, progress for a waiting
   * POST's token (on that POST's stream), or a message of the Session's own (a server's request or
   * notice relayed to the agent), which goes out on the session's first open stream, or nowhere
   * while none is open.
   */
  private connect(handles?: InputHandles): Connection {
    const waiting = new Map<string, Waiting>();
    const streams = new Set<ServerResponse>();
    const { session, end } = this.options.session((line) => {
      const message = parseMessage(line);
      const key = answerKey(message);
      const deliver = key === undefined ? undefined : waiting.get(key);
      if (deliver !== undefined) {
        waiting.delete(key!);
        deliver.answer(line, message);
        return;
      }
      // Progress goes on its request's own POST stream, before the answer; anything else on the GET stream.
      const about = progressFor(message, waiting);
      if (about !== undefined) {
        about.before(line);
        return;
      }
      const [stream] = streams;
      stream?.write(event(line));
    }, handles);
    return { session, end, waiting, streams };
  }

  /** A GET stream of the session: held open, and ended with the session. A few at a time. */
  private stream(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      refuse(res, 406, 'Not Acceptable: the stream is text/event-stream');
      return;
    }
    const named = this.connection(req, res);
    if (named === undefined) return;
    const { connection } = named;
    if (connection.streams.size >= MAX_STREAMS_PER_SESSION) {
      refuse(res, 409, `Conflict: this session already has ${MAX_STREAMS_PER_SESSION} streams open`);
      return;
    }
    connection.streams.add(res);
    res.once('close', () => connection.streams.delete(res));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': open\n\n');
  }

  private end(req: IncomingMessage, res: ServerResponse): void {
    const named = this.connection(req, res);
    if (named === undefined) return;
    this.sessions.end(named.id);
    named.connection.end();
    for (const stream of named.connection.streams) stream.end();
    res.writeHead(204).end();
  }
}
