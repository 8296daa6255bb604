// The broker's own JSON reader and writers: strict parsing, refusals at every bound, and a
// canonical form that tells values apart exactly when they differ.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/json/canonical.js';
import { canonicalNumber } from '../../src/json/number.js';
import { DEFAULT_READ_LIMITS, JsonReadError, readJson, type ReadLimits } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';

const canon = (text: string): string => canonicalJson(readJson(text));
const limits = (overrides: Partial<ReadLimits>): ReadLimits => ({ ...DEFAULT_READ_LIMITS, ...overrides });

describe('readJson', () => {
  it.each([
    ['1 2', 'unexpected data after the JSON value at offset 2'],
    ['01', 'unexpected data after the JSON value at offset 1'],
    ['', 'unexpected end of text at offset 0'],
    ['[', 'unexpected end of text at offset 1'],
    ['@', 'unexpected character "@" at offset 0'],
    ['[1,]', 'unexpected character "]" at offset 3'],
    ['{', 'expected a string key at offset 1'],
    ['{1:2}', 'expected a string key at offset 1'],
    ['{"a":1,}', 'expected a string key at offset 7'],
    ['{"a" 1}', 'expected ":" at offset 5'],
    ['{"a":1 "b":2}', 'expected "," or "}" at offset 7'],
    ['{"a":1]', 'expected "," or "}" at offset 6'],
    ['[1 2]', 'expected "," or "]" at offset 3'],
    ['[1}', 'expected "," or "]" at offset 2'],
    ['tru', 'expected true at offset 0'],
    ['nul', 'expected null at offset 0'],
    ['fals', 'expected false at offset 0'],
    ['-', 'expected a digit at offset 1'],
    ['1.', 'expected a digit after "." at offset 2'],
    ['1e+', 'expected a digit in the exponent at offset 3'],
    ['"abc', 'unterminated string at offset 4'],
    ['"a\u0001"', 'unescaped control character in string at offset 2'],
    ['"\\u12g4"', 'bad \\u escape at offset 1'],
    ['"\\x"', 'bad escape at offset 1'],
    ['"\\', 'bad escape at offset 1'],
  ])('refuses %j, saying where and why: %s', (text, message) => {
    const thrown = (() => {
      try {
        readJson(text);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(JsonReadError);
    expect([(thrown as Error).name, (thrown as Error).message]).toEqual(['JsonReadError', message]);
  });

  it('keeps number literals as written', () => {
    expect(readJson('[9007199254740993, 1.0, -0, 1E+2]')).toEqual({
      kind: 'array',
      items: ['9007199254740993', '1.0', '-0', '1E+2'].map((text) => ({ kind: 'number', text })),
    });
  });

  it('keeps object entries in the order received', () => {
    expect(writeJson(readJson('{"b":1,"a":2,"c":{"z":0,"y":1}}'))).toBe('{"b":1,"a":2,"c":{"z":0,"y":1}}');
  });

  it.each([
    ['{"a":1,"a":2}', 'duplicate key "a"'],
    ['{"a":1,"\\u0061":2}', 'duplicate key "a"'],
    ['{"x":{"k":1,"k":1}}', 'duplicate key "k"'],
  ])('refuses the duplicate key in %s', (text, message) => {
    expect(() => readJson(text)).toThrow(message);
  });

  it.each([
    '',
    ' ',
    '01',
    '1.',
    '.5',
    '+1',
    '-',
    '1e',
    'NaN',
    'Infinity',
    'tru',
    '[1,]',
    '{"a":1,}',
    '{a:1}',
    "'a'",
    '"a',
    '"\t"',
    '"\\x"',
    '"\\u12"',
    '[1] [2]',
    '{"a" 1}',
    '[1 2]',
  ])('refuses the malformed text %j', (text) => {
    expect(() => readJson(text)).toThrow(JsonReadError);
  });

  it('refuses an unpaired surrogate and accepts a pair', () => {
    expect(() => readJson('"\\ud800"')).toThrow('unpaired surrogate');
    expect(() => readJson('"\\udc00x"')).toThrow('unpaired surrogate');
    expect(readJson('"\\ud83d\\ude00"')).toEqual({ kind: 'string', value: '\u{1f600}' });
  });

  it('accepts nesting up to maxDepth and refuses one level more', () => {
    const nest = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    expect(() => readJson(nest(64))).not.toThrow();
    expect(() => readJson(nest(65))).toThrow('nesting deeper than 64');
    expect(() => readJson(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)).toThrow('nesting deeper than 64');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), (depth, max) => {
        const ok = depth <= max;
        let threw = false;
        try {
          readJson(nest(depth), limits({ maxDepth: max }));
        } catch {
          threw = true;
        }
        return threw === !ok;
      }),
    );
  });

  it('refuses every other bound instead of truncating', () => {
    expect(() => readJson('"abcd"', limits({ maxStringLength: 3 }))).toThrow('string longer than 3');
    expect(() => readJson('{"abcd":1}', limits({ maxStringLength: 3 }))).toThrow('string longer than 3');
    expect(() => readJson('"a\\nc"', limits({ maxStringLength: 3 }))).not.toThrow();
    expect(() => readJson('[1,2,3]', limits({ maxNodes: 3 }))).toThrow('more than 3 values');
    expect(() => readJson('[1,2]', limits({ maxNodes: 3 }))).not.toThrow();
    expect(() => readJson('12345', limits({ maxNumberLength: 4 }))).toThrow('number literal longer than 4');
    expect(() => readJson('[1,2]  ', limits({ maxLength: 6 }))).toThrow('exceeds the limit of 6');
  });

  // The broker fails only the request whose answer broke a limit, but ends a session whose server
  // broke the grammar; the two must not be confused.
  it('tells a broken limit from broken grammar', () => {
    const overLimit = (text: string, bound: Partial<ReadLimits> = {}): boolean | undefined => {
      try {
        readJson(text, limits(bound));
      } catch (err) {
        return err instanceof JsonReadError ? err.overLimit : undefined;
      }
      return undefined;
    };
    expect(overLimit('[[[]]]', { maxDepth: 2 })).toBe(true);
    expect(overLimit('[1,2,3]', { maxNodes: 3 })).toBe(true);
    expect(overLimit('"abcd"', { maxStringLength: 3 })).toBe(true);
    expect(overLimit('12345', { maxNumberLength: 4 })).toBe(true);
    expect(overLimit('[1,2]  ', { maxLength: 6 })).toBe(true);
    for (const broken of ['[1,', '{"a" 1}', '"\\x"', 'nul', '[1]x', '{"a":1,"a":2}']) expect(overLimit(broken)).toBe(false);
  });
});

describe('canonicalNumber', () => {
  it.each([
    ['1', '1'],
    ['1.0', '1'],
    ['10e-1', '1'],
    ['0.1e1', '1'],
    ['100e-2', '1'],
    ['-0', '0'],
    ['0.000e5', '0'],
    ['9007199254740993', '9007199254740993'],
    ['9007199254740992', '9007199254740992'],
    ['12345678901234567890', '12345678901234567890'],
    ['1e20', '100000000000000000000'],
    ['1e21', '1e+21'],
    // 22 digits with the point after the 21st: still written with a point, as Number::toString would.
    ['123456789012345678901.5', '123456789012345678901.5'],
    ['123456789012345678901234', '1.23456789012345678901234e+23'],
    ['0.1000000000000000055511151231257827', '0.1000000000000000055511151231257827'],
    ['0.000001', '0.000001'],
    ['1e-7', '1e-7'],
    ['-1.5E-7', '-1.5e-7'],
    ['123.456e2', '12345.6'],
    ['1E400', '1e+400'],
    ['-0.0012300', '-0.00123'],
  ])('%s is %s', (literal, expected) => {
    expect(canonicalNumber(literal)).toBe(expected);
  });

  it('writes every float64 as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        return canonicalNumber(JSON.stringify(x)) === JSON.stringify(x);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives one text to every spelling of one value, and keeps integers beyond 2^53 apart', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -40, max: 40 }), (m, e) => {
        const spellings = [`${m}e${e}`, `${m}0e${e - 1}`, `${m}.000E${e}`, `${m}00E${e - 2}`];
        const texts = new Set(spellings.map(canonicalNumber));
        const neighbour = canonicalNumber(`${m + 1n}e${e}`);
        return texts.size === 1 && !texts.has(neighbour);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 10n ** 21n - 1n }), (b) => {
        const text = String(b);
        return canonicalNumber(text) === text && canonicalNumber(String(b + 1n)) !== text;
      }),
    );
  });
});

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units, drops whitespace and escapes minimally', () => {
    expect(canon(' { "b" : [ 1.0 , true , null ] , "a" : "x" , "\u00e9":0, "\ud83d\ude00":1, "\uffff":2 } ')).toBe(
      '{"a":"x","b":[1,true,null],"\u00e9":0,"\ud83d\ude00":1,"\uffff":2}',
    );
    expect(canon('"\\u0041\\/\\b\\f\\n\\r\\t\\u0001\\u001F\\"\\\\\u2028\u007f"')).toBe(
      '"A/\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\\u2028\u007f"',
    );
  });

  it('tells apart schemas that a float64 would merge', () => {
    expect(canon('{"maximum":9007199254740993}')).not.toBe(canon('{"maximum":9007199254740992}'));
    expect(JSON.stringify(JSON.parse('{"maximum":9007199254740993}'))).toBe(
      JSON.stringify(JSON.parse('{"maximum":9007199254740992}')),
    );
  });
});

// JSON values with strings that are well-formed UTF-16 and numbers a float64 holds exactly.
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 4 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** The same value with every object's keys in another order. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const order = entries.map((_, i) => (i * 7919 + seed) % (entries.length || 1));
  const sorted = entries.map((entry, i) => [order[i] ?? 0, i, entry] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // Integer-like keys are always enumerated first by JS, so only the others can move.
  return Object.fromEntries(sorted.map(([, , [k, v]]) => [k, shuffled(v, seed + 1)]));
}

/** An independent canonical form for float64-safe values: sorted keys, JSON.stringify leaves. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

describe('properties', () => {
  it('the canonical form ignores key order and whitespace', () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(), fc.constantFrom(0, 1, 2, '\t', ' \r\n'), (x, seed, indent) => {
        const a = canon(JSON.stringify(x));
        const b = canon(JSON.stringify(shuffled(x, seed), null, indent));
        return a === b && a === reference(x);
      }),
      { numRuns: 500 },
    );
  });

  it('the order-preserving writer reproduces compact JSON.stringify output byte for byte', () => {
    fc.assert(
      fc.property(jsonValue, (x) => {
        const text = JSON.stringify(x);
        return writeJson(readJson(text)) === text;
      }),
      { numRuns: 500 },
    );
  });

  it('duplicate keys are refused wherever they are', () => {
    fc.assert(
      fc.property(jsonValue, fc.string({ unit: 'grapheme', maxLength: 4 }), (x, key) => {
        const k = JSON.stringify(key);
        const text = `{${k}:${JSON.stringify(x)},${k}:0}`;
        try {
          readJson(`[${text}]`);
          return false;
        } catch (err) {
          return err instanceof JsonReadError && err.message.startsWith('duplicate key');
        }
      }),
    );
  });

  it('numbers beyond 2^53 survive reading and writing', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 128n }), (b) => {
        const text = `{"n":${b},"m":[-${b}]}`;
        const n = canonicalNumber(String(b));
        return writeJson(readJson(text)) === text && canon(text) === `{"m":[-${n}],"n":${n}}` && n !== canonicalNumber(String(b + 1n));
      }),
    );
  });
});
