/**
 * The stdio framing of MCP: one JSON-RPC message per line. The reader works on bytes so that the
 * ledger can record exactly what arrived (length and SHA-256 of the bytes, not of a decoding),
 * and it bounds what it holds, so a client that never sends a newline cannot exhaust memory.
 * The writer bounds what the kit holds too: text given in pieces (a line, or an HTTP body) is
 * streamed as fast as the reader takes it, never held whole.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { Pieces } from './json-text.js';

/** One line read from stdin, without its line ending (`\n` or `\r\n`). */
export interface Line {
  /** The decoded line; for an overlong line only its first `keepBytes` bytes, decoded. */
  text: string;
  /** Length of the whole line in bytes. */
  bytes: number;
  /** SHA-256 (hex) of the whole line's bytes. */
  sha256: string;
  /** False when the line exceeded `maxLineBytes` and only its head was kept. */
  complete: boolean;
}

export interface LineLimits {
  /** Lines longer than this are hashed and counted but not held. */
  maxLineBytes: number;
  /** How much of an overlong line to keep as text. */
  keepBytes: number;
}

/** 256 KiB of head is more than the ledger's 65,536-character cut can need (≤ 3 bytes per UTF-16 unit). */
export const DEFAULT_LIMITS: LineLimits = { maxLineBytes: 64 * 1024 * 1024, keepBytes: 256 * 1024 };

const LF = 0x0a;
const CR = 0x0d;

/**
 * Calls `onLine` for every line of `input`, including a last line with no newline; resolves at
 * end of input, once every line is handled. When `onLine` returns a promise, reading stops
 * (`input` is paused, and the rest of a chunk already read waits) until it settles, so lines are
 * handled one after another, in order.
 */
export function readLines(
  input: Readable,
  limits: LineLimits,
  onLine: (line: Line) => void | Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let current = new LineAccumulator(limits);
    let handling: Promise<void> | null = null;
    /** Handles the lines of `chunk` from `start`; stops at a line whose handling is pending. */
    const consume = (chunk: Buffer, start: number): void => {
      for (let nl = chunk.indexOf(LF, start); nl !== -1; nl = chunk.indexOf(LF, start)) {
        current.push(chunk.subarray(start, nl));
        const line = current.finish();
        current = new LineAccumulator(limits);
        start = nl + 1;
        const pending = onLine(line);
        if (pending instanceof Promise) {
          input.pause();
          handling = pending.then(() => {
            handling = null;
            consume(chunk, start);
            if (handling === null) input.resume();
          });
          handling.catch(reject);
          return;
        }
      }
      if (start < chunk.length) current.push(chunk.subarray(start));
    };
    input.on('data', (chunk: Buffer) => consume(chunk, 0));
    input.on('end', () => {
      const finish = async (): Promise<void> => {
        while (handling !== null) await handling;
        if (!current.isEmpty()) await onLine(current.finish());
      };
      finish().then(resolve, reject);
    });
    input.on('error', reject);
  });
}

/** Collects the pieces of one line; past the limit it keeps only the head and a running hash. */
class LineAccumulator {
  private parts: Buffer[] = [];
  private size = 0;
  private overflow: { hash: Hash; head: Buffer; held: number | null } | null = null;

  constructor(private readonly limits: LineLimits) {}

  isEmpty(): boolean {
    return this.size === 0;
  }

  push(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.overflow) {
      this.hashHoldingLastByte(piece);
      return;
    }
    this.parts.push(piece);
    if (this.size > this.limits.maxLineBytes) {
      const whole = Buffer.concat(this.parts);
      this.parts = [];
      this.overflow = { hash: createHash('sha256'), head: whole.subarray(0, this.limits.keepBytes), held: null };
      this.hashHoldingLastByte(whole);
    }
  }

  finish(): Line {
    if (!this.overflow) {
      let whole = Buffer.concat(this.parts);
      if (whole.at(-1) === CR) whole = whole.subarray(0, -1);
      return { text: whole.toString('utf8'), ...describeBytes(whole), complete: true };
    }
    const { hash, head, held } = this.overflow;
    let bytes = this.size;
    if (held === CR) bytes -= 1;
    else if (held !== null) hash.update(Buffer.of(held));
    return { text: head.toString('utf8'), bytes, sha256: hash.digest('hex'), complete: false };
  }

  /** The last byte seen may be the CR of a CRLF ending, which is not part of the line, so it waits. */
  private hashHoldingLastByte(piece: Buffer): void {
    const overflow = this.overflow!;
    if (overflow.held !== null) overflow.hash.update(Buffer.of(overflow.held));
    overflow.hash.update(piece.subarray(0, -1));
    overflow.held = piece.at(-1)!;
  }
}

function describeBytes(bytes: Buffer): { bytes: number; sha256: string } {
  return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * The bytes to write for one line of raw text (which must not contain a line break), with the
 * length and hash the ledger records of it.
 */
export function frameLine(text: string): { frame: Buffer; bytes: number; sha256: string } {
  const bytes = Buffer.from(text, 'utf8');
  return { frame: Buffer.concat([bytes, Buffer.of(LF)]), ...describeBytes(bytes) };
}

/**
 * What the ledger records of a line given in pieces, without its newline: the pieces walked once.
 * `text` is the line's first `keep` characters (UTF-16 units), `chars` its whole length in them.
 */
export function describePieces(pieces: Pieces, keep: number): { bytes: number; sha256: string; text: string; chars: number } {
  const hash = createHash('sha256');
  let bytes = 0;
  let text = '';
  let chars = 0;
  for (const piece of pieces()) {
    hash.update(piece, 'utf8');
    bytes += Buffer.byteLength(piece, 'utf8');
    if (text.length < keep) text += piece.slice(0, keep - text.length);
    chars += piece.length;
  }
  return { bytes, sha256: hash.digest('hex'), text, chars };
}

/**
 * Writes text given in pieces honouring backpressure: whenever `output` asks (write returns false)
 * the next piece waits for it to drain, so the writer holds about one piece at a time. Resolves
 * true once every piece is handed over, or false early if `output` closes or fails: then no one is
 * reading.
 */
export async function streamPieces(output: Writable, pieces: Pieces): Promise<boolean> {
  for (const piece of pieces()) {
    if (output.destroyed) return false;
    if (!output.write(piece, 'utf8') && !(await drained(output))) return false;
  }
  return !output.destroyed;
}

/** Writes a line given in pieces, and its newline, as streamPieces writes them. */
export async function writePieces(output: Writable, pieces: Pieces): Promise<void> {
  if (await streamPieces(output, pieces)) output.write('\n');
}

/** Resolves true when `output` drains, false if it closes or fails first. */
function drained(output: Writable): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (ok: boolean) => () => {
      output.off('drain', onDrain);
      output.off('close', onGone);
      output.off('error', onGone);
      resolve(ok);
    };
    const onDrain = settle(true);
    const onGone = settle(false);
    output.on('drain', onDrain);
    output.on('close', onGone);
    output.on('error', onGone);
  });
}
