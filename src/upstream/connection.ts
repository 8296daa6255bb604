// A JSON-RPC session with the server over its stdio, framed and decoded by the broker itself.
// Requests carry ids the broker chose, so a response is matched by exactly one literal and a
// server cannot answer a request it was never sent. Every request is bounded in time, and once
// the server is gone every pending and later request fails at once, naming the server.

import { RequestTimedOut, ResultOverLimit, ResultTooLarge, ServerGone, UpstreamError } from '../errors.js';
import { errorLine, notificationLine, parseMessage, requestLine, resultLine } from '../wire/jsonrpc.js';
import { LineSplitter, OVERLONG_KEPT_BYTES, type Overlong } from '../wire/lines.js';
import { plain } from '../json/tree.js';
import { ServerInitiated, type Reply, type ServerRequestHandler } from './inbound.js';
import type { ServerProcess } from './process.js';
import type { JsonValue } from '../types.js';

// Defined with what hands a server's own messages over, which both connections share.
export type { Reply, ServerRequestHandler } from './inbound.js';

/** What the listing and the session need from a server connection. */
export interface Requester {
  /** `what` names the request in a timeout message, e.g. `tools/call "write_note"`. */
  request(method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply>;
  notify(method: string, params: JsonValue | undefined): void;
  /** Calls `listener` for each notification of `method` the server sends from now on. */
  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void;
  /** From now on, answers each request the server sends (but ping) with what `handler` settles to. */
  onRequest(handler: ServerRequestHandler): void;
}

/** More requests in flight than this are refused rather than queued without bound. */
const MAX_PENDING = 256;

interface Pending {
  readonly resolve: (reply: Reply) => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class Connection implements Requester {
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private readonly initiated = new ServerInitiated();
  /** Set once the server can no longer be spoken to; says why. */
  private failure: string | undefined;
  /** Whether that failure is the broker's own close, not the server's doing. */
  private closedByBroker = false;
  /** Set while the rest of an over-long answer is drained whose request already failed. */
  private drainingPlaced = false;

  /**
   * `maxLineBytes` bounds every line the server sends, `maxQueuedBytes` what the broker holds
   * written for the server and not yet read by it; undefined leaves either unbounded.
   */
  constructor(
    readonly serverId: string,
    private readonly server: ServerProcess,
    maxLineBytes?: number,
    private readonly maxQueuedBytes = Number.POSITIVE_INFINITY,
  ) {
    const bound = maxLineBytes ?? Number.POSITIVE_INFINITY;
    const lines = new LineSplitter(
      (line) => this.receive(line),
      (problem) => this.broken(`sent ${problem}`),
      bound,
      (overlong) => this.tooLarge(overlong),
      (head) => this.tooLargeBegun(head, bound),
    );
    server.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
    server.stdout.once('end', () => this.fail('closed its output'));
    void server.exited.then((how) => this.fail(how));
  }

  request(method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply> {
    if (this.failure !== undefined) return Promise.reject(this.gone(this.failure, false));
    if (this.pending.size >= MAX_PENDING) {
      return Promise.reject(this.error(`has ${MAX_PENDING} requests in flight already`));
    }
    // A server that stops reading would otherwise have the broker hold every later request for
    // it: past the bound a request is refused at once, and memory stays flat.
    if (this.backedUp()) {
      return Promise.reject(this.error(`has not read the last ${this.server.queuedBytes()} bytes the broker wrote to it`));
    }
    const id = this.nextId++;
    const key = String(id);
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        // The spec asks a requester that gives up to say so, so the server can stop the work.
        this.notify('notifications/cancelled', plain({ requestId: id, reason: 'timeout' }));
        reject(new RequestTimedOut(`server "${this.serverId}" did not answer ${what} within ${timeoutMs} ms`, timeoutMs));
      }, timeoutMs);
      this.pending.set(key, { resolve, reject, timer });
      this.server.write(requestLine(plain(id), method, params));
    });
  }

  /** A notice to a server that has stopped reading is dropped: none of them is owed an answer. */
  notify(method: string, params: JsonValue | undefined): void {
    if (this.failure === undefined && !this.backedUp()) this.server.write(notificationLine(method, params));
  }

  /** Whether the server has left more of what the broker wrote unread than the bound allows. */
  private backedUp(): boolean {
    return this.server.queuedBytes() >= this.maxQueuedBytes;
  }

  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void {
    this.initiated.onNotification(method, listener);
  }

  onRequest(handler: ServerRequestHandler): void {
    this.initiated.onRequest(handler);
  }

  /** `why` completes "server X was closed by the broker ..." for every later request. */
  close(why?: string): Promise<void> {
    this.fail(why === undefined ? 'was closed by the broker' : `was closed by the broker ${why}`, true);
    return this.server.close();
  }

  private error(problem: string): UpstreamError {
    return new UpstreamError(`server "${this.serverId}" ${problem}`);
  }

  private overLimit(problem: string): ResultOverLimit {
    return new ResultOverLimit(`server "${this.serverId}" answered with a message the broker will not read: ${problem}`);
  }

  private gone(problem: string, dispatched: boolean): ServerGone {
    return new ServerGone(`server "${this.serverId}" ${problem}`, this.serverId, dispatched, this.closedByBroker);
  }

  /** The first failure is the one kept: `byBroker` says it is the broker's own close(). */
  private fail(problem: string, byBroker = false): void {
    if (this.failure !== undefined) return;
    this.failure = problem;
    this.closedByBroker = byBroker;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(this.gone(problem, true));
    }
    this.pending.clear();
  }

  /** The server broke the protocol: nothing more it sends can be trusted, so it is stopped. */
  private broken(problem: string): void {
    this.fail(problem);
    void this.server.close();
  }

  /**
   * An answer that has just gone over the bound and names its request at its start fails that
   * request at once, not when the server ends the line; the rest is drained unread.
   */
  private tooLargeBegun(head: Buffer, maxLineBytes: number): void {
    const key = ID_AT_START.exec(head.toString('latin1'))?.[1];
    const p = key === undefined || this.failure !== undefined ? undefined : this.pending.get(key);
    if (key === undefined || p === undefined) return;
    this.drainingPlaced = true;
    this.pending.delete(key);
    clearTimeout(p.timer);
    p.reject(this.resultTooLarge(maxLineBytes));
  }

  private resultTooLarge(maxLineBytes: number): ResultTooLarge {
    return new ResultTooLarge(`server "${this.serverId}" answered with a message longer than ${maxLineBytes} bytes`, maxLineBytes);
  }

  /** An answer longer than the bound was dropped as it arrived. */
  private tooLarge({ head, tail, maxLineBytes }: Overlong): void {
    if (this.drainingPlaced) {
      this.drainingPlaced = false;
      return;
    }
    this.drop(
      head.toString('latin1'),
      tail.toString('latin1'),
      `sent a line longer than ${maxLineBytes} bytes that answers no request`,
      this.resultTooLarge(maxLineBytes),
    );
  }

  /**
   * An answer the broker will not read (longer than the line bound, or past a limit of the JSON
   * reader) is placed by the id at its start or its end: that request alone fails with `error`,
   * and the session goes on. A line that names no pending request cannot be placed, so the server
   * is treated as broken.
   */
  private drop(head: string, tail: string, unplaced: string, error: UpstreamError): void {
    if (this.failure !== undefined) return;
    const key = answeredId(head, tail);
    const p = key === undefined ? undefined : this.pending.get(key);
    if (key === undefined || p === undefined) {
      this.broken(unplaced);
      return;
    }
    this.pending.delete(key);
    clearTimeout(p.timer);
    p.reject(error);
  }

  private receive(line: string): void {
    if (this.failure !== undefined) return;
    const message = parseMessage(line);
    switch (message.kind) {
      case 'unreadable':
        // Well-formed as far as read but too deep or too large to read: refused like an over-long line.
        if (message.overLimit) {
          const unplaced = `sent a line that is not a valid JSON-RPC message: ${message.problem}`;
          this.drop(line.slice(0, OVERLONG_KEPT_BYTES), line.slice(-OVERLONG_KEPT_BYTES), unplaced, this.overLimit(message.problem));
          return;
        }
        // Anything else but a well-formed message ends the session: guessing what a broken line
        // meant is how two readers come to disagree.
        this.broken(`sent a line that is not a valid JSON-RPC message: ${message.problem}`);
        return;
      case 'request': {
        const { id, method, params } = message;
        void this.initiated.answer(method, params).then((reply) => {
          if (this.failure === undefined) this.server.write(reply.ok ? resultLine(id, reply.result) : errorLine(id, reply.error));
        });
        return;
      }
      case 'notification':
        this.initiated.notification(message.method, message.params);
        return;
      case 'result':
      case 'error': {
        // Only a number literal the broker wrote matches; a late answer to a request that timed
        // out, or an answer to nothing, is dropped.
        const key = message.id.kind === 'number' ? message.id.text : undefined;
        const p = key === undefined ? undefined : this.pending.get(key);
        if (key === undefined || p === undefined) return;
        this.pending.delete(key);
        clearTimeout(p.timer);
        p.resolve(message.kind === 'result' ? { ok: true, result: message.result } : { ok: false, error: message.error });
      }
    }
  }
}

// The broker's ids are plain integers, so an id is found where JSON-RPC puts it at the top level:
// first (after an optional "jsonrpc" member) or last.
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*([1-9][0-9]{0,15})\s*,/;
const ID_AT_END = /,\s*"id"\s*:\s*([1-9][0-9]{0,15})\s*\}\s*$/;

function answeredId(head: string, tail: string): string | undefined {
  return ID_AT_START.exec(head)?.[1] ?? ID_AT_END.exec(tail)?.[1];
}
