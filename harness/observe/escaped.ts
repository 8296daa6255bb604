import { everyString } from './strings.js';

/**
 * Characters that let text an agent or a server chose forge a line, move a terminal's cursor, or
 * reorder or hide what a reader sees: C0 and C1 controls (line breaks included), zero-width and
 * bidi marks, line and paragraph separators, the word joiner and the BOM. Wherever such text is
 * written for someone to read (an audit record, a load report, an error message) it must be
 * escaped.
 */
const UNESCAPED = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;

/** The first string anywhere in a value (keys included) that holds a raw such character. */
export function firstUnescaped(value: unknown): string | undefined {
  return everyString(value).find((text) => UNESCAPED.test(text));
}
