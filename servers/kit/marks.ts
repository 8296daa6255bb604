/**
 * `mark_every`: when a line written in pieces passes each multiple of N bytes, so that a benchmark
 * can tell how long after the server crossed a broker's bound the broker's answer reached the
 * agent, from the server's own account rather than the broker's. The time is the monotonic clock
 * (process.hrtime), which every process on one machine reads alike.
 */
import type { Pieces } from './json-text.js';

/**
 * The same pieces, calling `mark(bytes, monoNs)` for each multiple of `every` bytes once the
 * writer has taken the piece that reaches it (and waited for the pipe to drain, when it asked to:
 * the writer asks for the next piece only then). The pieces are walked lazily, as the writer walks
 * them; walked again (a hash pass), they mark again, so only the writing pass is given this.
 */
export function markedPieces(pieces: Pieces, every: number, mark: (bytes: number, monoNs: bigint) => void): Pieces {
  return function* () {
    let written = 0;
    let next = every;
    for (const piece of pieces()) {
      yield piece;
      written += Buffer.byteLength(piece, 'utf8');
      if (written < next) continue;
      const now = process.hrtime.bigint();
      for (; written >= next; next += every) mark(next, now);
    }
  };
}
