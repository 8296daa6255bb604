/**
 * The agent's side of MCP's Streamable HTTP transport, as newline-delimited JSON-RPC: each line
 * the agent sends is POSTed, and each message the broker answers with (a JSON body, or the data
 * of each event of an SSE body) comes back as one line. Answers are passed on as the broker wrote
 * them, never parsed and re-serialised (the harness judges the bytes): only the raw newlines
 * JSON allows as whitespace are taken out, so a message stays one line.
 *
 * Everything is bounded: each body (16 MiB unless told), each request's time, the DELETE that ends
 * the session. A body over its cap fails the session, once the message it was carrying has been
 * delivered as far as the cap (the broker sent the agent that much, and the harness judges it);
 * an HTTP error status delivers nothing and is noted, never thrown.
 */

import { setTimeout as pause } from 'node:timers/promises';
import { dataValue, lineBreak, unfinishedData } from './line-break.js';
import { REQUEST_META, STATELESS_REVISION } from './revisions.js';

/** Largest body taken from the broker; past it the session fails rather than read on. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Bound on one POST, answer included, unless told: longer than any step the harness waits. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Bound on the DELETE that ends the session. */
const DELETE_TIMEOUT_MS = 2_000;
/**
 * Bound on reading the GET stream on after the DELETE: a broker ends it with the session, and
 * what it wrote before that (a call's notices, sent there rather than on the call's answer)
 * reached the agent and is judged.
 */
const GET_DRAIN_MS = 1_000;
/** Bound on waiting for the GET stream's headers before the agent's first request goes out. */
const GET_OPEN_MS = 5_000;
/** How much of an error body a note quotes. */
const NOTE_BODY_CHARS = 300;

export interface StreamableHttpOptions {
  url: string;
  /** Receives each message the broker sent, one line each. */
  onLine(line: string): void;
  /** Receives what the session observed that is not a message: an error status, a dropped body. */
  onNote(text: string): void;
  /** Called once when the session can no longer carry messages (a body over its cap). */
  onFailure(reason: string): void;
  maxBodyBytes?: number;
  requestTimeoutMs?: number;
  /** Sent with every request besides the transport's own: the agent's credential to the broker, say. */
  headers?: Record<string, string>;
}

class BodyTooLarge extends Error {}

/** A message as one line: JSON's whitespace newlines dropped, nothing else touched. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, '');
}

/** What the transport reads of a line the agent sends, from a copy: the line is sent as it is. */
interface Sent {
  method?: string;
  /** The revision its `_meta` names: only a 2026-07-28 request says one. */
  revision?: string;
  /** `params.name` or `params.uri`, the source of `Mcp-Name`. */
  name?: string;
}

function readSent(line: string): Sent {
  try {
    const { method, params } = JSON.parse(line) as { method?: unknown; params?: { name?: unknown; uri?: unknown; _meta?: Record<string, unknown> } };
    const revision = params?._meta?.[REQUEST_META.protocolVersion];
    const name = params?.name ?? params?.uri;
    return {
      ...(typeof method === 'string' ? { method } : {}),
      ...(typeof revision === 'string' ? { revision } : {}),
      ...(typeof name === 'string' ? { name } : {}),
    };
  } catch {
    return {};
  }
}

/** The methods whose `Mcp-Name` header carries `params.name` or `params.uri` (streamable-http.mdx, standard headers). */
const NAMED_METHODS = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * A header value as 2026-07-28 carries it: as it is when it is plain visible ASCII with no
 * leading or trailing space, else (and when it looks like the sentinel itself) Base64 of its
 * UTF-8 between `=?base64?` and `?=` (streamable-http.mdx, value encoding).
 */
export function headerValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * The headers a 2026-07-28 request carries from its own body: `MCP-Protocol-Version` as its
 * `_meta` says, `Mcp-Method`, and `Mcp-Name` for a call, read or prompt. None for a line of
 * another revision, which negotiated its version at initialize.
 */
export const revisionHeaders = (line: string): Record<string, string> => bodyHeaders(readSent(line));

function bodyHeaders(sent: Sent): Record<string, string> {
  if (sent.revision !== STATELESS_REVISION || sent.method === undefined) return {};
  return {
    'mcp-protocol-version': sent.revision,
    'mcp-method': sent.method,
    ...(NAMED_METHODS.has(sent.method) && sent.name !== undefined ? { 'mcp-name': headerValue(sent.name) } : {}),
  };
}

/** The protocol version an initialize answer negotiated, read from a copy of it. */
function negotiatedVersion(line: string): string | undefined {
  try {
    const version = (JSON.parse(line) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a body's chunks as text, failing once more than `cap` bytes have come, after the text up
 * to the cap; `abort` ends the request first, so the body is not read on while it is let go of.
 */
async function* boundedText(body: ReadableStream<Uint8Array>, cap: number, abort: () => void): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      const within = value.byteLength - (total - cap);
      if (within > 0) yield decoder.decode(value.subarray(0, within));
      abort();
      // Not awaited: a stream whose source ignores the abort must not hold the session.
      reader.cancel().catch(() => {});
      throw new BodyTooLarge(`a body over ${cap} bytes`);
    }
    yield decoder.decode(value, { stream: true });
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

/** Messages the broker has begun and not finished, each read as far as it has come. */
type Arriving = Set<() => string>;

/**
 * The data of each event of an SSE stream (https://html.spec.whatwg.org/#event-stream-interpretation):
 * `data:` fields joined, every other field ignored, an event ended by a blank line. When the body
 * goes past its cap, the event it cut short is yielded as far as it came, then the failure thrown.
 * While it reads, `arriving` holds the event under way as far as it has come.
 */
async function* sseData(chunks: AsyncIterable<string>, arriving: Arriving): AsyncGenerator<string> {
  let buffer = '';
  let data: string[] = [];
  const underWay = () => `${data.join('')}${unfinishedData(buffer)}`;
  arriving.add(underWay);
  try {
    for await (const chunk of chunks) {
      const scanned = buffer.length;
      buffer += chunk;
      let newline = lineBreak(buffer, scanned);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line === 'data' || line.startsWith('data:')) {
          data.push(dataValue(line));
        }
        newline = lineBreak(buffer, 0);
      }
    }
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      const cut = underWay();
      if (cut !== '') yield cut;
    }
    throw error;
  } finally {
    arriving.delete(underWay);
  }
  if (data.length > 0) yield data.join('\n');
}

export class StreamableHttpSession {
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** The standalone GET stream's reading, settled once the broker ends it or it is aborted. */
  private getStream: Promise<void> | undefined;
  /** The initialize in flight: nothing else is sent before it is answered, so it carries the session id. */
  private initializing: Promise<void> | undefined;
  /**
   * The initialized notification, and the GET stream it opens until its headers have come
   * (bounded): nothing later is sent before, so a broker that sends a call's notices on the GET
   * stream has it by the first call, and none is lost to a stream not yet open.
   */
  private opening: Promise<void> | undefined;
  private failed = false;
  private ended = false;
  /** Aborts every request still in flight when the session ends. */
  private readonly aborter = new AbortController();
  private readonly maxBodyBytes: number;
  private readonly requestTimeoutMs: number;
  private readonly underWay: Arriving = new Set();

  constructor(private readonly options: StreamableHttpOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  /**
   * What has arrived of the messages the broker has begun and not finished (a JSON body or an SSE
   * event still open), one line each; '' when there are none. It reached the agent all the same.
   */
  arriving(): string {
    return [...this.underWay]
      .map((read) => oneLine(read()))
      .filter((text) => text !== '')
      .join('\n');
  }

  /** The session id the broker gave at initialize, once it has. */
  get id(): string | undefined {
    return this.sessionId;
  }

  private headers(accept: string): Record<string, string> {
    return {
      ...this.options.headers,
      accept,
      ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
      ...(this.protocolVersion === undefined ? {} : { 'mcp-protocol-version': this.protocolVersion }),
    };
  }

  private fail(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    this.aborter.abort();
    this.options.onFailure(reason);
  }

  /**
   * POSTs one line; settles once its answer has been delivered, noted or dropped. A 2026-07-28
   * request opens nothing: no initialize gives it a session id, no initialized notification opens
   * the GET stream, and its headers come from its own body.
   */
  async send(line: string): Promise<void> {
    const sent = readSent(line);
    const method = sent.method;
    if (method === 'initialize') {
      const posted = this.post(line, sent);
      this.initializing = posted;
      return posted;
    }
    if (method === 'notifications/initialized') {
      this.opening = (async () => {
        await this.initializing;
        await this.post(line, sent);
      })();
      return this.opening;
    }
    await this.initializing;
    await this.opening;
    return this.post(line, sent);
  }

  private async post(line: string, sent: Sent): Promise<void> {
    if (this.failed || this.ended) return;
    const method = sent.method;
    const what = method ?? 'a message';
    const request = new AbortController();
    // Not AbortSignal.timeout in the composite: on Node 20 a garbage collection can take it before
    // it fires (nodejs/node#57736), and a broker that never answers would hang the run.
    const timer = setTimeout(() => request.abort(new DOMException(`no answer within ${this.requestTimeoutMs} ms`, 'TimeoutError')), this.requestTimeoutMs);
    const signal = AbortSignal.any([this.aborter.signal, request.signal]);
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { ...this.headers('application/json, text/event-stream'), ...bodyHeaders(sent), 'content-type': 'application/json' },
        body: line,
        redirect: 'manual',
        signal,
      });
      if (method === 'initialize') this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
      const delivered = await this.deliver(response, what, () => request.abort(), (answer) => {
        if (method === 'initialize') this.protocolVersion ??= negotiatedVersion(answer);
      });
      if (method === 'notifications/initialized' && delivered) await this.openGetStream();
    } catch (error) {
      this.noteFailure(error, `POST ${what}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Delivers what a response carries: each message as a line, nothing for 202 or an error status
   * (which is noted). True when the broker accepted the message (a 2xx status).
   */
  private async deliver(response: Response, what: string, abort: () => void, seen: (line: string) => void = () => {}): Promise<boolean> {
    if (!response.ok) {
      const body = response.body ? await this.text(response.body, abort) : '';
      this.options.onNote(`HTTP ${response.status} for ${what}${body ? `: ${body.slice(0, NOTE_BODY_CHARS)}` : ''}`);
      return false;
    }
    if (response.status === 202 || !response.body) {
      abort();
      return true;
    }
    const type = response.headers.get('content-type') ?? '';
    const emit = (message: string) => {
      const line = oneLine(message);
      if (line.length === 0) return;
      seen(line);
      this.options.onLine(line);
    };
    if (type.includes('text/event-stream')) {
      for await (const data of sseData(boundedText(response.body, this.maxBodyBytes, abort), this.underWay)) emit(data);
    } else {
      if (!type.includes('application/json')) this.options.onNote(`${what} answered with Content-Type ${type || '(none)'}`);
      emit(await this.text(response.body, abort, emit, this.underWay));
    }
    return true;
  }

  /**
   * A body's text, bounded; a body over the cap gives `cut` what came up to it, then fails. A
   * body that is a message is in `arriving` while it is read.
   */
  private async text(body: ReadableStream<Uint8Array>, abort: () => void, cut: (partial: string) => void = () => {}, arriving?: Arriving): Promise<string> {
    let text = '';
    const underWay = () => text;
    arriving?.add(underWay);
    try {
      for await (const chunk of boundedText(body, this.maxBodyBytes, abort)) text += chunk;
    } catch (error) {
      if (error instanceof BodyTooLarge) cut(text);
      throw error;
    } finally {
      arriving?.delete(underWay);
    }
    return text;
  }

  private noteFailure(error: unknown, what: string): void {
    if (error instanceof BodyTooLarge) this.fail(`${what}: ${error.message}`);
    else if (!this.ended && !this.failed) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${this.requestTimeoutMs} ms` : String((error as Error).cause ?? (error as Error).message);
      this.options.onNote(`${what} failed: ${reason}`);
    }
  }

  /**
   * The optional stream of messages the broker sends of its own accord (405: it offers none), read
   * in the background; settles once its headers came or it failed, or after GET_OPEN_MS.
   */
  private openGetStream(): Promise<void> {
    if (this.getStream !== undefined || this.ended) return Promise.resolve();
    let opened!: () => void;
    const headers = new Promise<void>((resolve) => (opened = resolve));
    this.getStream = (async () => {
      try {
        const stream = new AbortController();
        const response = await fetch(this.options.url, { method: 'GET', headers: this.headers('text/event-stream'), redirect: 'manual', signal: AbortSignal.any([this.aborter.signal, stream.signal]) });
        opened();
        if (response.status === 405) {
          stream.abort();
          return;
        }
        await this.deliver(response, 'the GET stream', () => stream.abort());
      } catch (error) {
        this.noteFailure(error, 'GET stream');
      } finally {
        opened();
      }
    })();
    return Promise.race([headers, pause(GET_OPEN_MS, undefined, { ref: false })]);
  }

  /**
   * Ends the session: a DELETE with its id (bounded), the GET stream read until the broker ends it
   * (bounded), then every request still open is aborted.
   */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.sessionId !== undefined && !this.failed) {
      const ending = new AbortController();
      const timer = setTimeout(() => ending.abort(), DELETE_TIMEOUT_MS);
      try {
        await fetch(this.options.url, { method: 'DELETE', headers: this.headers('application/json'), redirect: 'manual', signal: ending.signal });
      } catch {
        // A broker that does not answer the DELETE is stopped by its process group anyway.
      } finally {
        clearTimeout(timer);
        ending.abort();
      }
      if (this.getStream !== undefined) await Promise.race([this.getStream, pause(GET_DRAIN_MS, undefined, { ref: false })]);
    }
    this.aborter.abort();
  }
}
