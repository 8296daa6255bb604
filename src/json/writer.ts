// Writes a value back as JSON text in the order it was received, with every number literal as it
// was written. This is how the broker forwards what it did not decide on (schemas, arguments,
// results): nothing is lost to a float64 and nothing is reordered.

import { quoteString } from './escape.js';
import type { JsonObject, JsonValue } from '../types.js';

/**
 * What a writer may choose; all else (no insignificant whitespace, minimal string escapes) is
 * fixed. canonical.ts writes the same walk with a number's exact value and members sorted.
 */
export interface WriteStyle {
  number(text: string): string;
  members(entries: JsonObject['entries']): JsonObject['entries'];
}

const AS_RECEIVED: WriteStyle = { number: (text) => text, members: (entries) => entries };

export function writeJson(value: JsonValue): string {
  return writeJsonIn(AS_RECEIVED, value);
}

export function writeJsonIn(style: WriteStyle, value: JsonValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'number':
      return style.number(value.text);
    case 'string':
      return quoteString(value.value);
    case 'array':
      return `[${value.items.map((item) => writeJsonIn(style, item)).join(',')}]`;
    case 'object':
      return `{${style.members(value.entries).map(([k, v]) => `${quoteString(k)}:${writeJsonIn(style, v)}`).join(',')}}`;
  }
}
