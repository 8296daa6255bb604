/**
 * Where the next line of an event stream ends in `text`, looking from `from` on: the first CR or
 * LF (a CRLF is one break, its LF skipped by the reader), or -1. Readers search only what came
 * since their last search, so a long line arriving in many chunks costs linear time, not quadratic.
 */
export function lineBreak(text: string, from: number): number {
  const cr = text.indexOf('\r', from);
  const lf = text.indexOf('\n', from);
  return cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
}
