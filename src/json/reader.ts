// A strict, bounded RFC 8259 reader. It exists because JSON.parse turns every number into a
// float64 and silently keeps the last of two duplicate keys: both let a peer make two different
// texts look the same, or one text mean two things. Every bound is a refusal, never a truncation.

import type { JsonArray, JsonObject, JsonValue } from '../types.js';

export interface ReadLimits {
  /** Longest accepted text, in UTF-16 code units. */
  readonly maxLength: number;
  /** Deepest nesting of arrays and objects; the top-level container is depth 1. */
  readonly maxDepth: number;
  /** Most values (of any kind, keys excluded) in one text. */
  readonly maxNodes: number;
  /** Longest string, key or value, in UTF-16 code units after unescaping. */
  readonly maxStringLength: number;
  /** Longest number literal, in characters. */
  readonly maxNumberLength: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxLength: 16 * 1024 * 1024,
  maxDepth: 64,
  maxNodes: 1_000_000,
  maxStringLength: 16 * 1024 * 1024,
  maxNumberLength: 1024,
};

export class JsonReadError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /**
     * The text broke one of the limits rather than the grammar. The reader stopped there, so
     * nothing past that point was checked; a caller may still place the text (by an id it can
     * find without reading the whole) and refuse it alone, rather than treat its sender as broken.
     */
    readonly overLimit = false,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsonReadError';
  }
}

/** Parses one complete JSON text; anything after the value other than whitespace is an error. */
export function readJson(text: string, limits: ReadLimits = DEFAULT_READ_LIMITS): JsonValue {
  if (text.length > limits.maxLength) {
    throw new JsonReadError(`text of ${text.length} characters exceeds the limit of ${limits.maxLength}`, 0, true);
  }
  return new Reader(text, limits).readDocument();
}

// An unpaired surrogate cannot be encoded as UTF-8, so two different ones would reach a hash or
// a peer as the same replacement character. Refusing them keeps every string exactly encodable.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Up to this many keys, an object's are compared one by one rather than kept in a set. */
const FEW_KEYS = 8;

function hasKey(entries: readonly (readonly [string, JsonValue])[], key: string): boolean {
  for (const [taken] of entries) if (taken === key) return true;
  return false;
}

const isSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Reader {
  private pos = 0;
  private nodes = 0;

  constructor(
    private readonly text: string,
    private readonly limits: ReadLimits,
  ) {}

  readDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.readValue(0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail('unexpected data after the JSON value');
    return value;
  }

  private fail(message: string): never {
    throw new JsonReadError(message, this.pos);
  }

  private overLimit(message: string, offset = this.pos): never {
    throw new JsonReadError(message, offset, true);
  }

  private skipWhitespace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  private countNode(): void {
    this.nodes++;
    if (this.nodes > this.limits.maxNodes) this.overLimit(`more than ${this.limits.maxNodes} values`);
  }

  /** `depth` is the number of containers already open around this value. */
  private readValue(depth: number): JsonValue {
    this.countNode();
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.readObject(depth + 1);
      case '[':
        return this.readArray(depth + 1);
      case '"':
        return { kind: 'string', value: this.readString() };
      case 't':
        this.expectWord('true');
        return { kind: 'bool', value: true };
      case 'f':
        this.expectWord('false');
        return { kind: 'bool', value: false };
      case 'n':
        this.expectWord('null');
        return { kind: 'null' };
      case undefined:
        return this.fail('unexpected end of text');
      default:
        if (c === '-' || (c >= '0' && c <= '9')) return { kind: 'number', text: this.readNumber() };
        return this.fail(`unexpected character ${JSON.stringify(c)}`);
    }
  }

  private enter(depth: number): void {
    if (depth > this.limits.maxDepth) this.overLimit(`nesting deeper than ${this.limits.maxDepth}`);
    this.pos++;
    this.skipWhitespace();
  }

  private readObject(depth: number): JsonObject {
    this.enter(depth);
    const entries: (readonly [string, JsonValue])[] = [];
    // Most objects have a few keys, compared one by one; a larger one's keys go into a set.
    let seen: Set<string> | undefined;
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', entries };
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail('expected a string key');
      const keyOffset = this.pos;
      const key = this.readString();
      // Keys are compared after unescaping, so "a" and "\u0061" are the same key.
      if (seen === undefined ? hasKey(entries, key) : seen.has(key)) {
        throw new JsonReadError(`duplicate key ${JSON.stringify(key)}`, keyOffset);
      }
      if (seen !== undefined) seen.add(key);
      else if (entries.length === FEW_KEYS) seen = new Set([...entries.map(([taken]) => taken), key]);
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail('expected ":"');
      this.pos++;
      this.skipWhitespace();
      entries.push([key, this.readValue(depth)]);
      this.skipWhitespace();
      const sep = this.text[this.pos];
      this.pos++;
      if (sep === '}') return { kind: 'object', entries };
      if (sep !== ',') {
        this.pos--;
        this.fail('expected "," or "}"');
      }
      this.skipWhitespace();
    }
  }

  private readArray(depth: number): JsonArray {
    this.enter(depth);
    const items: JsonValue[] = [];
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.readValue(depth));
      this.skipWhitespace();
      const sep = this.text[this.pos];
      this.pos++;
      if (sep === ']') return { kind: 'array', items };
      if (sep !== ',') {
        this.pos--;
        this.fail('expected "," or "]"');
      }
      this.skipWhitespace();
    }
  }

  private expectWord(word: string): void {
    if (!this.text.startsWith(word, this.pos)) this.fail(`expected ${word}`);
    this.pos += word.length;
  }

  private readNumber(): string {
    const start = this.pos;
    const t = this.text;
    if (t[this.pos] === '-') this.pos++;
    if (t[this.pos] === '0') {
      this.pos++;
    } else if (!this.skipDigits()) {
      this.fail('expected a digit');
    }
    if (t[this.pos] === '.') {
      this.pos++;
      if (!this.skipDigits()) this.fail('expected a digit after "."');
    }
    if (t[this.pos] === 'e' || t[this.pos] === 'E') {
      this.pos++;
      if (t[this.pos] === '+' || t[this.pos] === '-') this.pos++;
      if (!this.skipDigits()) this.fail('expected a digit in the exponent');
    }
    if (this.pos - start > this.limits.maxNumberLength) {
      this.overLimit(`number literal longer than ${this.limits.maxNumberLength} characters`, start);
    }
    return t.slice(start, this.pos);
  }

  /** Advances over ASCII digits; says whether there was at least one. */
  private skipDigits(): boolean {
    const start = this.pos;
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c < 0x30 || c > 0x39) break;
      this.pos++;
    }
    return this.pos > start;
  }

  /**
   * One pass that slices the string out of the text; only a string with escapes is built from
   * parts, and only one holding a surrogate code unit is searched for an unpaired one.
   */
  private readString(): string {
    const start = this.pos;
    const t = this.text;
    let pos = start + 1; // past the opening quote
    let runStart = pos;
    let parts: string[] | undefined;
    let surrogate = false;
    for (;;) {
      if (pos >= t.length) {
        this.pos = pos;
        this.fail('unterminated string');
      }
      const c = t.charCodeAt(pos);
      if (c === 0x22 /* " */) break;
      if (c < 0x20) {
        this.pos = pos;
        this.fail('unescaped control character in string');
      }
      if (c === 0x5c /* \ */) {
        this.pos = pos;
        const escaped = this.readEscape();
        (parts ??= []).push(t.slice(runStart, pos), escaped);
        surrogate ||= isSurrogate(escaped.charCodeAt(0));
        pos = this.pos;
        runStart = pos;
        continue;
      }
      surrogate ||= isSurrogate(c);
      pos++;
    }
    const last = t.slice(runStart, pos);
    this.pos = pos + 1; // past the closing quote
    const value = parts === undefined ? last : parts.join('') + last;
    // Checked once the string is whole: it is never longer than the text, which is bounded.
    if (value.length > this.limits.maxStringLength) this.overLimit(`string longer than ${this.limits.maxStringLength} characters`, start);
    if (surrogate && LONE_SURROGATE.test(value)) throw new JsonReadError('string holds an unpaired surrogate', start);
    return value;
  }

  /** Reads one escape sequence starting at the backslash and returns the character it names. */
  private readEscape(): string {
    const letter = this.text[this.pos + 1];
    if (letter === 'u') {
      const hex = this.text.slice(this.pos + 2, this.pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
      this.pos += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const short = letter === undefined ? undefined : SHORT_ESCAPES[letter];
    if (short === undefined) this.fail('bad escape');
    this.pos += 2;
    return short;
  }
}
