// A JSON-RPC session with a server reached over MCP's Streamable HTTP transport: each request is
// one POST whose answer is one application/json body. The URL was judged by the address guards
// before the first request; the HTTP guards decide whether a redirect is followed and how much
// of a body is read. As over stdio, ids are the broker's own integers, every request is bounded
// in time, and once the connection is closed every request fails at once.

import { RequestTimedOut, ResultOverLimit, ResultTooLarge, ServerGone, UpstreamError } from '../errors.js';
import type { HttpPlan } from '../guards/types.js';
import { notificationLine, parseMessage, requestLine } from '../jsonrpc.js';
import { member, plain, stringValue, type JsonValue } from '../json/tree.js';
import type { Reply, Requester } from './connection.js';

/** The session the server assigned at initialize; sent back with every later request. */
const SESSION_HEADER = 'mcp-session-id';
/** The protocol version initialize agreed on; the transport asks for it on every later request. */
const VERSION_HEADER = 'mcp-protocol-version';

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
  /** Aborted by close(), so that no request outlives the connection. */
  private readonly closing = new AbortController();

  constructor(
    readonly serverId: string,
    private readonly url: URL,
    private readonly plan: HttpPlan,
  ) {}

  async request(method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply> {
    if (this.failure !== undefined) throw new ServerGone(`server "${this.serverId}" ${this.failure}`, this.serverId, false);
    const id = this.nextId++;
    const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(timeoutMs)]);
    try {
      const response = await this.post(requestLine(plain(id), method, params), signal, what);
      if (method === 'initialize') this.session = response.headers.get(SESSION_HEADER) ?? undefined;
      const tooLong = `server "${this.serverId}" answered ${what} with a body longer than ${this.plan.maxBodyBytes} bytes`;
      const reply = this.answerTo(id, await readBody(response, this.plan.maxBodyBytes, tooLong), what);
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
      throw new ServerGone(`server "${this.serverId}" could not be asked ${what}: ${this.failure ?? causeOf(err)}`, this.serverId, true);
    }
  }

  notify(method: string, params: JsonValue | undefined): void {
    if (this.failure !== undefined) return;
    // A notification's answer carries nothing (202 Accepted); a failure to deliver one is not
    // the caller's to handle, as over stdio.
    void this.post(notificationLine(method, params), this.closing.signal, method)
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  }

  /** Servers can only send notifications on a stream this client does not open, so none arrive. */
  onNotification(): void {}

  close(why?: string): Promise<void> {
    this.failure ??= why === undefined ? 'was closed by the broker' : `was closed by the broker ${why}`;
    this.closing.abort();
    return Promise.resolve();
  }

  private error(problem: string): ServerGone {
    return new ServerGone(`server "${this.serverId}" ${problem}`, this.serverId, true);
  }

  private async post(body: string, signal: AbortSignal, what: string): Promise<Response> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(this.session === undefined ? {} : { [SESSION_HEADER]: this.session }),
        ...(this.version === undefined ? {} : { [VERSION_HEADER]: this.version }),
        ...(this.plan.bearer === undefined ? {} : { authorization: `Bearer ${this.plan.bearer}` }),
      },
      body,
      redirect: this.plan.followRedirects ? 'follow' : 'manual',
      signal,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw this.error(`answered ${what} with a redirect (HTTP ${response.status}), which is not followed`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw this.error(`answered ${what} with HTTP ${response.status}`);
    }
    return response;
  }

  /** Only an answer carrying the number literal the broker wrote answers the request. */
  private answerTo(id: number, text: string, what: string): Reply {
    const message = parseMessage(text);
    if (message.kind === 'unreadable') {
      // The body answers this request and no other, so one past the reader's limits fails it alone.
      if (message.overLimit) throw new ResultOverLimit(`server "${this.serverId}" answered ${what} with a message the broker will not read: ${message.problem}`);
      throw this.error(`answered ${what} with a body that is not a JSON-RPC message: ${message.problem}`);
    }
    if ((message.kind === 'result' || message.kind === 'error') && message.id.kind === 'number' && message.id.text === String(id)) {
      return message.kind === 'result' ? { ok: true, result: message.result } : { ok: false, error: message.error };
    }
    throw this.error(`answered ${what} with something other than its answer`);
  }
}

/**
 * The body as text, failing as soon as it is known to be longer than `maxBytes`: at once when
 * Content-Length says so, else when the bytes read pass it. What is past the bound is never read.
 * ResultTooLarge, so that an oversized answer to a call is reported as it is over stdio.
 */
async function readBody(response: Response, maxBytes: number, tooLong: string): Promise<string> {
  const announced = Number(response.headers.get('content-length') ?? Number.NaN);
  if (announced > maxBytes) {
    await response.body?.cancel();
    throw new ResultTooLarge(tooLong, maxBytes);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    read += next.value.byteLength;
    if (read > maxBytes) {
      await reader.cancel();
      throw new ResultTooLarge(tooLong, maxBytes);
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
