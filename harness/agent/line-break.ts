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

/** The value of a `data:` field line, its one optional leading space dropped. */
export function dataValue(line: string): string {
  const value = line.slice(5);
  return value.startsWith(' ') ? value.slice(1) : value;
}

/** What an unfinished line holds of an event's data: its value when it is a `data:` field, else nothing. */
export function unfinishedData(line: string): string {
  return line.startsWith('data:') ? dataValue(line) : '';
}
