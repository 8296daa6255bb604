/**
 * JSON values written as text the kit controls byte for byte.
 *
 * The kit never hands a listing to JSON.stringify: a hostile server must be able to send what a
 * serialiser would never produce (a number literal beyond float64, keys in another order, odd
 * spacing, needless escapes). Values are plain JS data; a number that must survive exactly is a
 * `NumberLiteral` holding its text. Object keys are written in insertion order, so authored data
 * must not use integer-like keys (JS would reorder those).
 */

/** A JSON number written exactly as `text`, e.g. 9007199254740993, which a JS number cannot hold. */
export class NumberLiteral {
  constructor(readonly text: string) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
      throw new Error(`not a JSON number literal: ${text}`);
    }
  }
}

export type JsonValue = null | boolean | number | string | NumberLiteral | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * `plain`: compact, keys as authored, minimal escapes.
 * `reshuffled`: the same JSON value in other bytes: keys reversed, spaces and tabs around every
 * token (never a line break, which would end the NDJSON frame), lowercase vowels escaped as \uXXXX.
 */
export type TextStyle = 'plain' | 'reshuffled';

export function writeJson(value: JsonValue, style: TextStyle = 'plain'): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return writeNumber(value);
  if (typeof value === 'string') return writeString(value, style);
  if (value instanceof NumberLiteral) return value.text;
  const [open, colon, comma, close] = style === 'plain' ? ['', ':', ',', ''] : [' ', ' :\t', ' ,  ', '\t'];
  if (Array.isArray(value)) {
    return `[${open}${value.map((item) => writeJson(item, style)).join(comma)}${close}]`;
  }
  const keys = Object.keys(value);
  if (style === 'reshuffled') keys.reverse();
  const members = keys.map((key) => `${writeString(key, style)}${colon}${writeJson(value[key]!, style)}`);
  return `{${open}${members.join(comma)}${close}}`;
}

export function writeString(text: string, style: TextStyle = 'plain'): string {
  // JSON.stringify of a lone string gives the minimal, valid escaping (lone surrogates included).
  if (style === 'plain') return JSON.stringify(text);
  // Escape unit by unit: rewriting the escaped output instead would corrupt the hex digits of
  // escapes such as \u001e.
  let body = '';
  for (const unit of text.split('')) {
    body += /[aeiou]/.test(unit)
      ? `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
      : JSON.stringify(unit).slice(1, -1);
  }
  return `"${body}"`;
}

function writeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
  return String(value);
}
