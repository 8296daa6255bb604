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

/**
 * Raw text too large to hold as one string: a function that yields it piece by piece, afresh at
 * every call (the writer walks it once to hash it for the ledger and once to send it).
 */
export type Pieces = () => Iterable<string>;

/** Raw JSON text, whole or in pieces. */
export type RawText = string | Pieces;

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

/**
 * Written without recursion, so that nesting costs heap rather than call stack: a `deep-<N>`
 * schema preset nests thousands of levels.
 */
export function writeJson(value: JsonValue, style: TextStyle = 'plain'): string {
  const [open, colon, comma, close] = style === 'plain' ? ['', ':', ',', ''] : [' ', ' :\t', ' ,  ', '\t'];
  let out = '';
  // What is left to write, the next item last: values, and punctuation as it is to be written.
  const todo: (JsonValue | Punctuation)[] = [value];
  for (let item = todo.pop(); item !== undefined; item = todo.pop()) {
    if (item instanceof Punctuation) {
      out += item.text;
    } else if (item === null || typeof item !== 'object' || item instanceof NumberLiteral) {
      out += writeScalar(item, style);
    } else {
      // Each member is the text before its value (a key, for an object) and the value.
      let members: [string, JsonValue][];
      if (Array.isArray(item)) {
        members = item.map((child) => ['', child]);
      } else {
        const keys = Object.keys(item);
        if (style === 'reshuffled') keys.reverse();
        members = keys.map((key) => [`${writeString(key, style)}${colon}`, item[key]!]);
      }
      const [first, last] = Array.isArray(item) ? ['[', ']'] : ['{', '}'];
      todo.push(new Punctuation(`${close}${last}`));
      for (let i = members.length - 1; i >= 0; i--) {
        const [before, child] = members[i]!;
        todo.push(child, new Punctuation(`${i === 0 ? `${first}${open}` : comma}${before}`));
      }
      if (members.length === 0) todo.push(new Punctuation(`${first}${open}`));
    }
  }
  return out;
}

/** Text writeJson writes as it is, told apart from a string value. */
class Punctuation {
  constructor(readonly text: string) {}
}

function writeScalar(value: null | boolean | number | string | NumberLiteral, style: TextStyle): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return writeNumber(value);
  if (typeof value === 'string') return writeString(value, style);
  return value.text;
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
