import { everyString } from './strings.js';

/**
 * Characters that let text an agent or a server chose forge a line, move a terminal's cursor, or
 * reorder or hide what a reader sees, by Unicode property rather than by a list (which misses
 * U+180E, U+2064, the Hangul fillers and whatever a later Unicode adds): controls (`Cc`, line
 * breaks included), format characters (`Cf`: zero-width and bidi marks, invisible operators, tag
 * characters, the BOM), default-ignorable code points (fillers, variation selectors) and line and
 * paragraph separators. Wherever such text is written for someone to read (an audit record, a load
 * report, an error message) it must be escaped. Written here, not shared with the broker: the
 * harness judges by its own reading.
 */
const UNESCAPED = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;

/** The first string anywhere in a value (keys included) that holds a raw such character. */
export function firstUnescaped(value: unknown): string | undefined {
  return everyString(value).find((text) => UNESCAPED.test(text));
}
