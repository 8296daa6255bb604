/** `mark_every`: marks at each multiple of N bytes the writer has taken, counted in UTF-8 bytes, on the writing pass only. */
import { describe, expect, it } from 'vitest';
import { markedPieces } from '../../servers/kit/marks.js';

describe('markedPieces', () => {
  it('yields the same pieces and marks every multiple once the piece reaching it is taken', () => {
    const marks: Array<{ bytes: number; taken: number }> = [];
    let taken = 0;
    // 'é' is two UTF-8 bytes: 3 + 4 + 10 = 17 bytes in all.
    const pieces = markedPieces(() => ['abc', 'éé', 'x'.repeat(10)], 5, (bytes) => marks.push({ bytes, taken }));
    const out: string[] = [];
    for (const piece of pieces()) {
      out.push(piece);
      taken++;
    }
    expect(out).toEqual(['abc', 'éé', 'x'.repeat(10)]);
    // 5 is passed by the second piece (7 bytes), 10 and 15 by the third (17): each after that piece is taken.
    expect(marks).toEqual([
      { bytes: 5, taken: 2 },
      { bytes: 10, taken: 3 },
      { bytes: 15, taken: 3 },
    ]);
  });

  it('marks nothing before the writer takes the first piece, and nothing when it stops early', () => {
    const marks: number[] = [];
    const pieces = markedPieces(() => ['x'.repeat(8), 'y'.repeat(8)], 4, (bytes) => marks.push(bytes));
    for (const piece of pieces()) {
      expect(piece).toBe('x'.repeat(8));
      break;
    }
    expect(marks).toEqual([]);
  });
});
