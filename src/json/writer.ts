// Writes a value back as JSON text in the order it was received, with every number literal as it
// was written. This is how the broker forwards what it did not decide on (schemas, arguments,
// results): nothing is lost to a float64 and nothing is reordered.

import { quoteString } from './escape.js';
import { isPlainArray } from './tree.js';
import type { JsonObject, JsonValue, Plain } from '../types.js';

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
    case 'array': {
      // Appended in place: a map and a join made two arrays per level, on every message's tree.
      const { items } = value;
      let out = '[';
      for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + writeJsonIn(style, items[i]!);
      return out + ']';
    }
    case 'object': {
      const entries = style.members(value.entries);
      let out = '{';
      for (let i = 0; i < entries.length; i++) out += `${i === 0 ? '' : ','}${quoteString(entries[i]![0])}:${writeJsonIn(style, entries[i]![1])}`;
      return out + '}';
    }
  }
}

/**
 * The text writeJson(plain(value)) gives, or with `sorted` the text canonicalJson(plain(value))
 * gives, written straight from the value without building its tree: the audit trail writes every
 * record it makes twice this way (once to hash, once to append), several records a call.
 */
export function writePlain(value: Plain, sorted = false): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // A safe integer's decimal text is already its canonical form.
      if (!Number.isSafeInteger(value)) throw new RangeError(`writePlain(): ${value} is not a safe integer`);
      return String(value);
    case 'string':
      return quoteString(value);
  }
  let out: string;
  if (isPlainArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + writePlain(value[i]!, sorted);
    return out + ']';
  }
  const keys = Object.keys(value);
  // The default sort compares UTF-16 code units, as canonical.ts does.
  if (sorted) keys.sort();
  out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i === 0 ? '' : ','}${quoteString(keys[i]!)}:${writePlain(value[keys[i]!]!, sorted)}`;
  return out + '}';
}
