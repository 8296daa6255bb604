// Newline-delimited framing for MCP over stdio, used on both sides of the broker. A line is
// bounded in bytes, must be valid UTF-8 (a replacement character would let two different byte
// strings read the same), and may end in \r\n. Blank lines carry no message and are skipped.

/** The longest line either peer may send, in bytes, not counting the line ending. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** After an over-long line, the rest of it is dropped up to the next newline. */
  private discarding = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onBadLine: (problem: string) => void,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.discarding) this.discarding = false;
      else if (this.fits(piece)) this.emit(Buffer.concat([...this.pending, piece]));
      else this.overflow();
      this.pending = [];
      this.pendingBytes = 0;
    }
    const rest = chunk.subarray(start);
    if (this.discarding || rest.length === 0) return;
    if (this.fits(rest)) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    } else {
      this.overflow();
      this.discarding = true; // the line goes on past this chunk; drop it up to its newline
    }
  }

  private fits(piece: Buffer): boolean {
    return this.pendingBytes + piece.length <= this.maxLineBytes;
  }

  private overflow(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.onBadLine(`a line longer than ${this.maxLineBytes} bytes`);
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
