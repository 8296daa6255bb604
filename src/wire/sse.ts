// The event-stream framing (text/event-stream) a Streamable HTTP server may answer a POST with,
// read as the HTML standard's "event stream interpretation" defines it: lines end in CRLF, LF or
// CR; a blank line dispatches the event; `data:` lines are joined with LF; `event` names its type;
// `id` sets the last event id; a line starting with `:` is a comment. It is read from bytes, not
// from a decoded string, so that every bound is counted in the bytes the server sent, and each
// line is decoded as strict UTF-8: a replacement character would let two different byte strings
// read the same (as for stdio lines). `retry` is not kept: the broker does not reconnect.

/** One dispatched event. */
export interface SseEvent {
  /** `message` unless the event named another type. */
  readonly type: string;
  /** The event's `data:` lines joined with LF; '' for an event whose data lines were all empty. */
  readonly data: string;
  /** The last event id set on the stream so far, if any. */
  readonly id: string | undefined;
}

export interface SseBounds {
  /** The most bytes one event's lines may take, line endings included. */
  readonly maxEventBytes: number;
  /** The most events one stream may dispatch. */
  readonly maxEvents: number;
  /** The most bytes one stream may carry, comments and blank lines included. */
  readonly maxStreamBytes: number;
}

/** Which bound a stream passed, or `utf8` for a line that is not UTF-8. */
export type SseProblemKind = 'event-bytes' | 'events' | 'stream-bytes' | 'utf8';

/** Why the stream is read no further; the message completes "a server answered with ...". */
export class SseProblem extends Error {
  constructor(
    message: string,
    readonly kind: SseProblemKind,
  ) {
    super(message);
  }
}

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export class SseReader {
  /** The bytes of the line not yet ended. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The bytes of the event being read: its ended lines and the partial one. */
  private eventBytes = 0;
  private streamBytes = 0;
  private events = 0;
  /** Whether the last byte seen ended a line with CR, so that an LF next belongs to it. */
  private afterCR = false;
  /** Whether the stream's first bytes have been seen (a BOM is skipped only there). */
  private started = false;
  private data: string[] = [];
  private type = '';
  private lastId: string | undefined;

  constructor(private readonly bounds: SseBounds) {}

  /** The events `chunk` completes, in order; throws SseProblem once a bound is passed. */
  push(chunk: Buffer): SseEvent[] {
    this.streamBytes += chunk.byteLength;
    if (this.streamBytes > this.bounds.maxStreamBytes) {
      throw new SseProblem(`an event stream longer than ${this.bounds.maxStreamBytes} bytes`, 'stream-bytes');
    }
    let bytes = chunk;
    if (!this.started) {
      this.started = true;
      if (bytes.subarray(0, BOM.length).equals(BOM)) bytes = bytes.subarray(BOM.length);
    }
    const dispatched: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte !== CR && byte !== LF) continue;
      const joinsCR = byte === LF && this.afterCR && i === start && this.partialBytes === 0;
      this.afterCR = byte === CR;
      if (joinsCR) {
        // The LF of a CRLF whose CR ended the previous line (perhaps in the previous chunk).
        start = i + 1;
        this.eventBytes += 1;
        continue;
      }
      this.grow(i - start + 1);
      this.partial.push(bytes.subarray(start, i));
      const line = Buffer.concat(this.partial);
      // A comment belongs to no event (servers send them to keep a stream alive): only the line
      // itself is bounded, and the stream's bytes.
      if (line[0] === COLON) this.eventBytes -= this.partialBytes + (i - start + 1);
      const event = this.line(line);
      this.partial = [];
      this.partialBytes = 0;
      start = i + 1;
      if (event !== undefined) dispatched.push(event);
    }
    if (start < bytes.length) {
      this.afterCR = false;
      this.grow(bytes.length - start);
      this.partial.push(bytes.subarray(start));
      this.partialBytes += bytes.length - start;
    }
    return dispatched;
  }

  /** Counts `n` more bytes of the event being read against its bound. */
  private grow(n: number): void {
    this.eventBytes += n;
    if (this.eventBytes > this.bounds.maxEventBytes) {
      throw new SseProblem(`an event longer than ${this.bounds.maxEventBytes} bytes`, 'event-bytes');
    }
  }

  /** Interprets one ended line; returns the event a blank line dispatches, if any. */
  private line(bytes: Buffer): SseEvent | undefined {
    if (bytes.length === 0) return this.dispatch();
    let text: string;
    try {
      text = STRICT_UTF8.decode(bytes);
    } catch {
      throw new SseProblem('an event-stream line that is not valid UTF-8', 'utf8');
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    const raw = colon === -1 ? '' : text.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
    // An id holding NUL is ignored, as the standard says.
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const data = this.data;
    const type = this.type;
    this.data = [];
    this.type = '';
    this.eventBytes = 0;
    // A block with no data line dispatches nothing (the standard's empty data buffer).
    if (data.length === 0) return undefined;
    this.events++;
    if (this.events > this.bounds.maxEvents) {
      throw new SseProblem(`an event stream of more than ${this.bounds.maxEvents} events`, 'events');
    }
    return { type: type === '' ? 'message' : type, data: data.join('\n'), id: this.lastId };
  }
}
