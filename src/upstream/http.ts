// A JSON-RPC session with a server reached over MCP's Streamable HTTP transport: each request is
// one POST whose answer is one application/json body, or an event stream (text/event-stream) that
// carries the answer after any requests and notifications the server sends first; those are
// handed to the same listeners and handler as over stdio, and the server's requests answered
// with one more POST. Once initialized, the broker also opens the stream a server sends on outside
// any call (a GET), read and handed over the same way (a server that offers none answers 405). The URL was judged by the address guards
// before the first request, and every address a request connects to is judged again as it is
// dialled (docs/network.md); the HTTP guards decide whether a redirect is followed and how much
// of a body is read. As over stdio, ids are the broker's own integers, every request is bounded
// in time, and once the connection is closed every request fails at once.

import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { RequestTimedOut, ResultOverLimit, ResultTooLarge, ServerGone, UpstreamError } from '../errors.js';
import type { HttpPlan } from '../guards/types.js';
import { errorLine, notificationLine, parseMessage, requestLine, resultLine, type Message } from '../wire/jsonrpc.js';
import { SseProblem, SseReader, type SseBounds } from '../wire/sse.js';
import { member, plain, stringValue } from '../json/tree.js';
import { hostOf } from '../net/address.js';
import { systemResolver, type Resolved, type Resolver } from '../net/resolve.js';
import type { Reply, Requester, ServerRequestHandler } from './connection.js';
import { ServerInitiated } from './inbound.js';
import { ListedParams } from './listed-params.js';
import { bounded } from './deadline.js';
import { mirroredHeaders } from './per-request.js';
import type { JsonValue } from '../types.js';

/** The session the server assigned at initialize; sent back with every later request. */
const SESSION_HEADER = 'mcp-session-id';
/** The protocol version initialize agreed on; the transport asks for it on every later request. */
const VERSION_HEADER = 'mcp-protocol-version';
/** How many redirects are followed when they are followed at all (no-redirects disabled): NET-7's five. */
const MAX_REDIRECTS = 5;
/** The most events one answer's stream may carry: progress and logging before an answer, not a flood. */
const MAX_STREAM_EVENTS = 1024;
/**
 * An event stream may carry, besides its answer, as many bytes again of what the server sends
 * before it: each event is bounded as one answer body is, the whole stream by twice that.
 */
const STREAM_BODIES = 2;
/**
 * How often the stream outside any call (the GET) is opened in all: again after the server ends
 * it, each time after twice the wait before (LISTEN_BACKOFF_MS first), never after a bound was
 * passed or a message could not be read (it fails closed), nor once the connection is closed.
 */
export const MAX_LISTEN_OPENS = 4;
const LISTEN_BACKOFF_MS = 250;
/** The most events the stream outside any call may carry each time it is open. */
const MAX_LISTEN_EVENTS = 4096;

/** What a connection may dial, and how it resolves a name to find out. */
export interface Dialling {
  /** Why `address` may not be dialled for `url`, or null; the address guards' judgement. */
  readonly refuse: (url: URL, address: string) => string | null;
  /** The system's resolver unless a test stands in for it. */
  readonly resolve?: Resolver;
}

/** The plan with no HTTP guard at all: redirects followed, bodies read whole, the host's token sent. */
export function unguardedHttp(bearer: string | undefined): HttpPlan {
  return { followRedirects: true, maxBodyBytes: Number.POSITIVE_INFINITY, bearer };
}

export class HttpConnection implements Requester {
  private nextId = 1;
  private session: string | undefined;
  private version: string | undefined;
  /** Set once the connection is closed; says why. */
  private failure: string | undefined;
  private readonly initiated = new ServerInitiated();
  /** The `x-mcp-header` annotations of the tools the server listed. */
  private readonly listedParams = new ListedParams();
  /** Aborted by close(), so that no request outlives the connection. */
  private readonly closing = new AbortController();
  /**
   * The HTTP modules, loaded by the first URL connection, not at the broker's start: a broker of
   * stdio servers never needs them, and loading them is a measurable part of its start.
   */
  private readonly modules = { http: process.getBuiltinModule('node:http'), https: process.getBuiltinModule('node:https') };
  /** This connection's own sockets, kept alive between requests and destroyed by close(). */
  private readonly agents = { http: new this.modules.http.Agent({ keepAlive: true }), https: new this.modules.https.Agent({ keepAlive: true }) };

  constructor(
    readonly serverId: string,
    private readonly url: URL,
    private readonly plan: HttpPlan,
    private readonly dialling: Dialling,
  ) {}

  async request(method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply> {
    if (this.failure !== undefined) throw new ServerGone(`server "${this.serverId}" ${this.failure}`, this.serverId, false, this.closing.signal.aborted);
    const id = this.nextId++;
    const { signal, done } = bounded(timeoutMs, [this.closing.signal]);
    try {
      const mirrored = mirroredHeaders(method, params);
      // A 2026-07-28 call also mirrors the arguments its tool's listing annotates (listed-params.ts).
      const annotated = method === 'tools/call' && Object.keys(mirrored).length > 0 ? this.listedParams.headersFor(params) : {};
      const response = await this.post(requestLine(plain(id), method, params), signal, what, { ...mirrored, ...annotated });
      if (method === 'initialize') this.session = headerValue(response, SESSION_HEADER);
      const reply = isEventStream(response) ? await this.answerOnStream(id, response, what) : await this.answerInBody(id, response, what);
      if (method === 'tools/list' && reply.ok) this.listedParams.learn(reply.result);
      // Whether the version is one the broker speaks is the listing's to judge, as over stdio.
      if (method === 'initialize' && reply.ok && reply.result.kind === 'object') {
        this.version = stringValue(member(reply.result, 'protocolVersion'));
      }
      return reply;
    } catch (err) {
      if (signal.aborted && !this.closing.signal.aborted) {
        // The spec asks a requester that gives up to say so, so the server can stop the work.
        this.notify('notifications/cancelled', plain({ requestId: id, reason: 'timeout' }));
        throw new RequestTimedOut(`server "${this.serverId}" did not answer ${what} within ${timeoutMs} ms`, timeoutMs);
      }
      if (err instanceof UpstreamError) throw err;
      // Sent or not, nothing came back that can be read: whether it ran is unknown.
      throw new ServerGone(`server "${this.serverId}" could not be asked ${what}: ${this.failure ?? causeOf(err)}`, this.serverId, true, this.closing.signal.aborted);
    } finally {
      done();
    }
  }

  notify(method: string, params: JsonValue | undefined): void {
    if (this.failure !== undefined) return;
    // A notification's answer carries nothing (202 Accepted); a failure to deliver one is not
    // the caller's to handle, as over stdio. Reading the answer out frees its socket for reuse.
    this.deliver(notificationLine(method, params), method);
    // The lifecycle's last step: from now on the server may send on a stream of its own.
    if (method === 'notifications/initialized') void this.listen();
  }

  /** Sends one message that is owed no answer but 202 Accepted. */
  private deliver(line: string, what: string): void {
    void this.post(line, this.closing.signal, what)
      .then((response) => response.resume())
      .catch(() => undefined);
  }

  /** Notifications arrive on the event stream that answers a request and on the one outside any call. */
  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void {
    this.initiated.onNotification(method, listener);
  }

  /** As notifications, the server's requests arrive on a request's stream or the one outside any call. */
  onRequest(handler: ServerRequestHandler): void {
    this.initiated.onRequest(handler);
  }

  close(why?: string): Promise<void> {
    this.failure ??= why === undefined ? 'was closed by the broker' : `was closed by the broker ${why}`;
    this.closing.abort();
    this.agents.http.destroy();
    this.agents.https.destroy();
    return Promise.resolve();
  }

  private error(problem: string): ServerGone {
    return new ServerGone(`server "${this.serverId}" ${problem}`, this.serverId, true);
  }

  /** Nothing was sent, so the request certainly did not run. */
  private notDialled(address: string, reason: string): ServerGone {
    return new ServerGone(`server "${this.serverId}" was not dialled at ${address}: ${reason}`, this.serverId, false);
  }

  /** The answer to one POST, after the redirects the plan follows; only a 2xx answer is returned. */
  private async post(body: string, signal: AbortSignal, what: string, mirrored: Record<string, string> = {}): Promise<IncomingMessage> {
    let target = this.url;
    for (let hops = 0; ; hops++) {
      const response = await this.send(target, signal, body, mirrored);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 200 && status < 300) return response;
      response.destroy();
      if (status < 300 || status >= 400) throw this.error(`answered ${what} with HTTP ${status}`);
      if (!this.plan.followRedirects || location === undefined) throw this.error(`answered ${what} with a redirect (HTTP ${status}), which is not followed`);
      if (hops === MAX_REDIRECTS) throw this.error(`answered ${what} with more than ${MAX_REDIRECTS} redirects`);
      // Followed only without no-redirects. The request is sent again as it was, as 307 and 308
      // ask; its target's addresses are judged when dialled, as every dial's are.
      target = new URL(location, target);
    }
  }

  /**
   * One POST of `body` to `target` (a GET for the stream outside any call when there is no body),
   * connected only to an address the dialling judgement lets through.
   */
  private send(target: URL, signal: AbortSignal, body?: string, mirrored: Record<string, string> = {}): Promise<IncomingMessage> {
    const host = hostOf(target);
    if (host.kind === 'address') {
      // Node connects to an IP literal without a lookup, so it is judged here: the address guard
      // judged the server's URL already, and this is the same judgement at the dial.
      const reason = this.dialling.refuse(target, host.address);
      if (reason !== null) return Promise.reject(this.notDialled(host.address, reason));
    }
    const https = target.protocol === 'https:';
    const headers = {
      ...(body === undefined ? { accept: 'text/event-stream' } : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json, text/event-stream' }),
      ...(this.session === undefined ? {} : { [SESSION_HEADER]: this.session }),
      ...(this.version === undefined ? {} : { [VERSION_HEADER]: this.version }),
      // A 2026-07-28 request names its version, method and subject in headers mirroring its body.
      ...mirrored,
      // The token is the server's: a redirect to another origin does not carry it.
      ...(this.plan.bearer === undefined || target.origin !== this.url.origin ? {} : { authorization: `Bearer ${this.plan.bearer}` }),
    };
    return new Promise((resolve, reject) => {
      // Certificates are checked against the URL's host name, not the address dialled.
      const options = { method: body === undefined ? 'GET' : 'POST', headers, signal, lookup: this.judgedLookup(target) };
      const request = https ? this.modules.https.request(target, { ...options, agent: this.agents.https }, resolve) : this.modules.http.request(target, { ...options, agent: this.agents.http }, resolve);
      request.on('error', reject);
      request.end(body);
    });
  }

  /**
   * The resolver every socket to `target` connects through: the name is resolved (by the
   * broker, once per session: the answer the address guard judged), every address is judged
   * again, and only if all pass is any handed to the socket; otherwise the connect fails and
   * nothing is dialled. A kept-alive socket was judged when it was opened. Node asks for one
   * address, or with `all` (its happy-eyeballs connect) for every one.
   */
  private judgedLookup(target: URL): LookupFunction {
    const resolve = this.dialling.resolve ?? systemResolver;
    const judged = async (name: string): Promise<readonly Resolved[]> => {
      const found = await resolve(name);
      if (found.length === 0) throw new Error(`"${name}" resolves to no address`);
      for (const { address } of found) {
        const reason = this.dialling.refuse(target, address);
        if (reason !== null) throw this.notDialled(address, `"${name}" resolves to it: ${reason}`);
      }
      return found;
    };
    return (name, options, callback) => {
      void judged(name).then(
        (found) => {
          if (options.all === true) callback(null, found.map(({ address, family }) => ({ address, family })));
          else callback(null, found[0]!.address, found[0]!.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, ''),
      );
    };
  }

  private async answerInBody(id: number, response: IncomingMessage, what: string): Promise<Reply> {
    const tooLong = `server "${this.serverId}" answered ${what} with a body longer than ${this.plan.maxBodyBytes} bytes`;
    const message = this.read(await readBody(response, this.plan.maxBodyBytes, tooLong), 'a body', what);
    const reply = answering(message, id);
    if (reply === undefined) throw this.error(`answered ${what} with something other than its answer`);
    return reply;
  }

  /**
   * The answer on an event stream, once it arrives; what the server sends before it is handled
   * as it arrives, and anything after it is not read (the stream is closed). Each event is bounded
   * as a body is, the stream in events and bytes, and all of it by the request's time.
   */
  private async answerOnStream(id: number, response: IncomingMessage, what: string): Promise<Reply> {
    const maxBytes = this.plan.maxBodyBytes;
    try {
      for await (const data of messageEvents(response, { maxEventBytes: maxBytes, maxEvents: MAX_STREAM_EVENTS, maxStreamBytes: STREAM_BODIES * maxBytes })) {
        const message = this.read(data, 'an event', what);
        const reply = answering(message, id);
        if (reply !== undefined) return reply;
        this.initiate(message);
      }
    } catch (err) {
      if (!(err instanceof SseProblem)) throw err;
      const problem = `answered ${what} with ${err.message}`;
      // One event is one message: past the bound it is refused as an over-long body is.
      if (err.kind === 'event-bytes') throw new ResultTooLarge(`server "${this.serverId}" ${problem}`, maxBytes);
      throw this.error(problem);
    } finally {
      response.destroy();
    }
    throw this.error(`ended the event stream answering ${what} without its answer`);
  }

  /**
   * Opens the stream the server sends on outside any call, and opens it again when the server
   * ends it, within MAX_LISTEN_OPENS. Any answer but a 2xx event stream (405: the server offers
   * none; a redirect, which is not followed) means there is none, and that is no failure.
   */
  private async listen(): Promise<void> {
    for (let opened = 0; opened < MAX_LISTEN_OPENS; opened++) {
      if (opened > 0 && !(await this.backedOff(LISTEN_BACKOFF_MS * 2 ** (opened - 1)))) return;
      if (this.failure !== undefined) return;
      let response: IncomingMessage;
      try {
        response = await this.send(this.url, this.closing.signal);
      } catch {
        return;
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300 || !isEventStream(response)) {
        response.destroy();
        return;
      }
      if (!(await this.heard(response))) return;
    }
  }

  /** Waits `ms`; false when the connection was closed meanwhile. */
  private async backedOff(ms: number): Promise<boolean> {
    try {
      await delay(ms, undefined, { signal: this.closing.signal });
    } catch {
      return false;
    }
    return this.failure === undefined;
  }

  /**
   * Reads the stream outside any call, handing every request and notification on it over as a
   * request's stream does; true when the server ended it, false when the broker stopped reading:
   * a bound passed, a message that is not JSON-RPC, or the connection closed.
   */
  private async heard(response: IncomingMessage): Promise<boolean> {
    const maxBytes = this.plan.maxBodyBytes;
    try {
      for await (const data of messageEvents(response, { maxEventBytes: maxBytes, maxEvents: MAX_LISTEN_EVENTS, maxStreamBytes: MAX_LISTEN_EVENTS * maxBytes })) {
        const message = parseMessage(data);
        if (message.kind === 'unreadable') return false;
        // An answer belongs on its request's stream: one here answers nothing the broker waits for.
        if (this.failure === undefined) this.initiate(message);
      }
      return this.failure === undefined;
    } catch {
      return false;
    } finally {
      response.destroy();
    }
  }

  /** One message as the server framed it; `framing` names the frame in a failure. */
  private read(text: string, framing: string, what: string): Message {
    const message = parseMessage(text);
    if (message.kind === 'unreadable') {
      // The frame answers this request and no other, so one past the reader's limits fails it alone.
      if (message.overLimit) throw new ResultOverLimit(`server "${this.serverId}" answered ${what} with a message the broker will not read: ${message.problem}`);
      throw this.error(`answered ${what} with ${framing} that is not a JSON-RPC message: ${message.problem}`);
    }
    return message;
  }

  /**
   * A request or notification the server sent on a stream, handed over as over stdio; a request's
   * answer is one more POST. An answer to another request is dropped, as over stdio.
   */
  private initiate(message: Message): void {
    if (message.kind === 'notification') this.initiated.notification(message.method, message.params);
    if (message.kind !== 'request') return;
    const { id, method, params } = message;
    void this.initiated.answer(method, params).then((reply) => {
      if (this.failure === undefined) this.deliver(reply.ok ? resultLine(id, reply.result) : errorLine(id, reply.error), `the answer to ${method}`);
    });
  }
}

/** The reply `message` is, when it answers the request numbered `id`: only the number literal the broker wrote. */
function answering(message: Message, id: number): Reply | undefined {
  if ((message.kind === 'result' || message.kind === 'error') && message.id.kind === 'number' && message.id.text === String(id)) {
    return message.kind === 'result' ? { ok: true, result: message.result } : { ok: false, error: message.error };
  }
  return undefined;
}

/** The data of each message event on the stream, read within `bounds` (SseProblem past one). */
async function* messageEvents(response: IncomingMessage, bounds: SseBounds): AsyncGenerator<string> {
  const reader = new SseReader(bounds);
  for await (const chunk of response as AsyncIterable<Buffer>) {
    for (const event of reader.push(chunk)) {
      // Only a message event carries JSON-RPC; an empty one (a resumption point) carries nothing.
      if (event.type === 'message' && event.data !== '') yield event.data;
    }
  }
}

/** Whether the answer is an event stream rather than one JSON body. */
function isEventStream(response: IncomingMessage): boolean {
  return (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
}

/**
 * The body as text, failing as soon as it is known to be longer than `maxBytes`: at once when
 * Content-Length says so, else when the bytes read pass it. What is past the bound is never read:
 * leaving the read destroys the response and its socket.
 * ResultTooLarge, so that an oversized answer to a call is reported as it is over stdio.
 */
async function readBody(response: IncomingMessage, maxBytes: number, tooLong: string): Promise<string> {
  const announced = Number(response.headers['content-length'] ?? Number.NaN);
  if (announced > maxBytes) {
    response.destroy();
    throw new ResultTooLarge(tooLong, maxBytes);
  }
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    read += chunk.byteLength;
    if (read > maxBytes) throw new ResultTooLarge(tooLong, maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A header's value; Node joins a repeated one into one string, as fetch did (only set-cookie is a list). */
function headerValue(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
