// Newline-delimited framing for MCP over stdio, used on both sides of the broker. A line is
// bounded in bytes, must be valid UTF-8 (a replacement character would let two different byte
// strings read the same), and may end in \r\n. Blank lines carry no message and are skipped.
// An over-long line is never held whole: past the bound its bytes are dropped while the reader
// scans for the newline, keeping only its first and last few bytes, so that the peer can still be
// told which request the line answered: at once, when its start names it (the rest of the line is
// then drained unread), or when the line ends.

/** The longest line either peer may send, in bytes, not counting the line ending. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** How much of an over-long line's start and end is kept, to find the id of what it answers. */
export const OVERLONG_KEPT_BYTES = 256;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What is kept of a line longer than the bound. */
export interface Overlong {
  readonly head: Buffer;
  readonly tail: Buffer;
  readonly maxLineBytes: number;
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while an over-long line is dropped up to its newline. */
  private overlong: { head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onBadLine: (problem: string) => void,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
    /** Called when an over-long line ends; without it the line is one more bad line. */
    private readonly onOverlong: (line: Overlong) => void = () => onBadLine(`a line longer than ${maxLineBytes} bytes`),
    /** Called with its first bytes as soon as a line goes over the bound, before it ends. */
    private readonly onOverlongBegun: (head: Buffer) => void = () => {},
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.overlong !== undefined) this.endOverlong(piece);
      // A line read whole from one chunk is decoded from the chunk itself (emit keeps no view of
      // it); only a line split across chunks is joined, which copies.
      else if (this.fits(piece)) this.emit(this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]));
      else {
        this.beginOverlong(piece);
        this.endOverlong(piece);
      }
      this.pending = [];
      this.pendingBytes = 0;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (this.overlong !== undefined) this.keepTail(rest);
    else if (this.fits(rest)) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    } else {
      this.beginOverlong(rest);
      this.keepTail(rest);
    }
  }

  private fits(piece: Buffer): boolean {
    return this.pendingBytes + piece.length <= this.maxLineBytes;
  }

  /**
   * Keeps the start and the end of what is pending, then drops the rest. Copies only those bytes
   * (concat with a length copies no further), and copies: a view would pin the chunk. `over` is
   * the piece that took the line over the bound.
   */
  private beginOverlong(over: Buffer): void {
    const head = Buffer.concat([...this.pending, over], Math.min(OVERLONG_KEPT_BYTES, this.pendingBytes + over.length));
    // The fewest last chunks that hold the last OVERLONG_KEPT_BYTES.
    let from = this.pending.length;
    for (let held = 0; from > 0 && held < OVERLONG_KEPT_BYTES; ) held += this.pending[--from]!.length;
    const tail = Buffer.from(Buffer.concat(this.pending.slice(from)).subarray(-OVERLONG_KEPT_BYTES));
    this.overlong = { head, tail };
    this.pending = [];
    this.pendingBytes = 0;
    this.onOverlongBegun(head);
  }

  private keepTail(piece: Buffer): void {
    if (this.overlong === undefined) return;
    const { head, tail } = this.overlong;
    const joined = piece.length >= OVERLONG_KEPT_BYTES ? piece : Buffer.concat([tail, piece]);
    this.overlong = { head, tail: Buffer.from(joined.subarray(-OVERLONG_KEPT_BYTES)) };
  }

  private endOverlong(piece: Buffer): void {
    this.keepTail(piece);
    const ended = this.overlong;
    this.overlong = undefined;
    if (ended === undefined) return;
    const tail = ended.tail.at(-1) === 0x0d ? ended.tail.subarray(0, -1) : ended.tail;
    this.onOverlong({ head: ended.head, tail, maxLineBytes: this.maxLineBytes });
  }

  private emit(bytes: Buffer): void {
    const body = bytes.at(-1) === 0x0d ? bytes.subarray(0, -1) : bytes;
    if (body.length === 0) return;
    let line: string;
    try {
      line = STRICT_UTF8.decode(body);
    } catch {
      this.onBadLine('a line that is not valid UTF-8');
      return;
    }
    this.onLine(line);
  }
}
