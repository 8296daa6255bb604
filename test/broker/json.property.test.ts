// The JSON reader and the canonical form against a model, on hostile text: values with numbers no
// float64 holds, any well-formed string (escaped or not) and any whitespace; duplicate keys however
// spelled; and arbitrary edits of a valid text, which must be read or refused with a JsonReadError
// and nothing else. json.test.ts holds the float64-safe properties; these add what a peer can
// send that JSON.parse would silently change.
// `npm test` runs a fixed seed; `npm run fuzz` a random one (test/fuzz.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/json/canonical.js';
import { canonicalNumber, compareNumbers } from '../../src/json/number.js';
import { JsonReadError, readJson } from '../../src/json/reader.js';
import { plain } from '../../src/json/tree.js';
import { writeJson, writePlain } from '../../src/json/writer.js';
import type { JsonValue, Plain } from '../../src/types.js';
import { fuzzParameters } from '../fuzz.js';
import { attemptRead } from './builders.js';

const PARAMETERS = fuzzParameters('json', 100);

/** A number literal of any size: sign, integer part, fraction and exponent, as RFC 8259 spells them. */
const literal = fc
  .record({
    sign: fc.constantFrom('', '-'),
    whole: fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String)),
    fraction: fc.option(fc.stringMatching(/^\d{1,25}$/), { nil: undefined }),
    exponent: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^\d{1,3}$/)), { nil: undefined }),
  })
  .map(({ sign, whole, fraction, exponent }) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : exponent.join('')}`);

/** Well-formed UTF-16 (no lone surrogate), control characters and quotes included. */
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: fc.constantFrom('"', '\\', '/', '\u0000', '\u001f', '\n', 'a', '\u2028', '\ud83d\ude00'), maxLength: 8 }));

/** The reader's own tree, as the model the text is written from. Keys unique per object. */
const tree: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<JsonValue>({ kind: 'null' }),
    fc.boolean().map((value): JsonValue => ({ kind: 'bool', value })),
    literal.map((t): JsonValue => ({ kind: 'number', text: t })),
    text.map((value): JsonValue => ({ kind: 'string', value })),
    fc.array(tie('value'), { maxLength: 4 }).map((items): JsonValue => ({ kind: 'array', items })),
    fc
      .uniqueArray(fc.tuple(text, tie('value')), { maxLength: 4, selector: ([key]) => key })
      .map((entries): JsonValue => ({ kind: 'object', entries })),
  ),
})).value;

/** How the model is spelled: whitespace between tokens and which characters are \u-escaped. */
const spelling = fc.record({ spaces: fc.array(fc.constantFrom('', ' ', '\t', '\n', '\r', ' \r\n '), { minLength: 1, maxLength: 8 }), escapes: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }) });
type Spelling = { spaces: string[]; escapes: boolean[] };

/** Writes the model as JSON text independently of src/json: JSON.stringify's escapes, or \u for any unit the spelling picks. */
function spell(value: JsonValue, how: Spelling): string {
  let n = 0;
  const space = () => how.spaces[n++ % how.spaces.length]!;
  // By UTF-16 unit: an escaped high surrogate may meet a raw low one, which is still one character.
  const quote = (s: string) =>
    `"${s
      .split('')
      .map((unit) => (how.escapes[n++ % how.escapes.length] ? `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(unit).slice(1, -1)))
      .join('')}"`;
  const walk = (v: JsonValue): string => {
    switch (v.kind) {
      case 'null':
        return 'null';
      case 'bool':
        return String(v.value);
      case 'number':
        return v.text;
      case 'string':
        return quote(v.value);
      case 'array':
        return `[${space()}${v.items.map((item) => `${walk(item)}${space()}`).join(`,${space()}`)}]`;
      case 'object':
        return `{${space()}${v.entries.map(([k, item]) => `${quote(k)}${space()}:${space()}${walk(item)}${space()}`).join(`,${space()}`)}}`;
    }
  };
  return `${space()}${walk(value)}${space()}`;
}

/** The model with every number spelled another way and every object's entries in another order. */
function respelled(value: JsonValue, seed: number): JsonValue {
  switch (value.kind) {
    case 'number': {
      // Trailing zeros in the fraction, and an exponent of zero or another letter: the same real number.
      const [, mantissa = value.text, letter = 'e', exponent = '0'] = /^(.*?)(?:([eE])([+-]?\d+))?$/.exec(value.text) ?? [];
      const zeros = `${mantissa}${mantissa.includes('.') ? '' : '.'}000`;
      const [, sign = '', digits = exponent] = /^([+-]?)(\d+)$/.exec(exponent) ?? [];
      // Leading zeros are allowed in an exponent (RFC 8259), never in the integer part.
      return { kind: 'number', text: seed % 2 === 0 ? `${zeros}${letter === 'e' ? 'E' : 'e'}${exponent}` : `${zeros}${letter}${sign}00${digits}` };
    }
    case 'array':
      return { kind: 'array', items: value.items.map((item, i) => respelled(item, seed + i)) };
    case 'object': {
      const entries = value.entries.map(([k, v], i) => [k, respelled(v, seed + i)] as const);
      const rotate = entries.length === 0 ? 0 : seed % entries.length;
      return { kind: 'object', entries: [...entries.slice(rotate), ...entries.slice(0, rotate)].reverse() };
    }
    default:
      return value;
  }
}

describe('readJson against a model', () => {
  it('reads every spelling of a value back as that value: number literals digit for digit, entries in order', () => {
    fc.assert(
      fc.property(tree, spelling, (value, how) => {
        expect(readJson(spell(value, how))).toEqual(value);
      }),
      PARAMETERS,
    );
  });

  it('refuses a duplicate key however it is escaped, at any depth', () => {
    const withEntry = tree.filter((v) => v.kind === 'object' && v.entries.length > 0);
    fc.assert(
      fc.property(withEntry, tree, fc.nat(), fc.nat(), spelling, fc.boolean(), (object, extra, pick, at, how, nested) => {
        if (object.kind !== 'object') return;
        const [key] = object.entries[pick % object.entries.length]!;
        const entries = [...object.entries];
        entries.splice(at % (entries.length + 1), 0, [key, extra]);
        const duplicated: JsonValue = { kind: 'object', entries };
        const text = spell(nested ? { kind: 'array', items: [{ kind: 'null' }, duplicated] } : duplicated, how);
        const read = attemptRead(text);
        expect(read).toBeInstanceOf(JsonReadError);
        expect((read as JsonReadError).message).toContain('duplicate key');
      }),
      PARAMETERS,
    );
  });

  it('reads or cleanly refuses any edit of a valid text, and accepts only what JSON.parse accepts', () => {
    const edit = fc.record({ at: fc.nat(), drop: fc.nat({ max: 3 }), insert: fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ',', ':', '-', '0', '9', 'e', '.', ' ', 'u', '\ud800', '\u0000', 'n', 't') , maxLength: 3 }) });
    fc.assert(
      fc.property(tree, spelling, edit, (value, how, { at, drop, insert }) => {
        const whole = spell(value, how);
        const cut = at % (whole.length + 1);
        const text = whole.slice(0, cut) + insert + whole.slice(cut + drop);
        const read = attemptRead(text);
        let parsed: unknown;
        let parses = true;
        try {
          parsed = JSON.parse(text);
        } catch {
          parses = false;
        }
        if (!(read instanceof JsonReadError)) {
          // Stricter than JSON.parse, never looser; and the same value where both agree.
          expect(parses).toBe(true);
          expect(JSON.parse(writeJson(read))).toEqual(parsed);
        } else if (parses) {
          // JSON.parse takes what the reader refuses only for what JSON.parse would silently change.
          expect(read.message).toMatch(/duplicate key|unpaired surrogate/);
        }
      }),
      PARAMETERS,
    );
  });

  it('reads any string of characters or cleanly refuses it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (text) => {
        attemptRead(text);
      }),
      PARAMETERS,
    );
  });
});

describe('canonicalJson against a model', () => {
  it('is idempotent and round-trips: the canonical text reads back to a value of the same canonical text', () => {
    fc.assert(
      fc.property(tree, (value) => {
        const once = canonicalJson(value);
        expect(canonicalJson(readJson(once))).toBe(once);
        // Canonical numbers are the literal's exact value, so reading and writing as received changes nothing.
        expect(writeJson(readJson(once))).toBe(once);
      }),
      PARAMETERS,
    );
  });

  it('ignores entry order, whitespace, escapes and the spelling of a number', () => {
    fc.assert(
      fc.property(tree, spelling, fc.nat(), (value, how, seed) => {
        expect(canonicalJson(readJson(spell(respelled(value, seed), how)))).toBe(canonicalJson(value));
      }),
      PARAMETERS,
    );
  });

  it("writes members in UTF-16 code unit order, RFC 8785's example included", () => {
    // RFC 8785 section 3.2.3: a surrogate pair sorts by its code units, before U+FB33.
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    // Read back with the broker's reader, which keeps members in the order written (JSON.parse would put "1" first).
    const order = (names: readonly string[]) => {
      const read = readJson(canonicalJson({ kind: 'object', entries: names.map((key) => [key, { kind: 'null' }] as const) }));
      return read.kind === 'object' ? read.entries.map(([key]) => key) : [];
    };
    expect(order(keys)).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 4 }), { maxLength: 30 }), (names) => {
        // The model: JavaScript's default sort compares UTF-16 code units.
        expect(order(names)).toEqual([...names].sort());
      }),
      PARAMETERS,
    );
  });

  it('tells apart two values whose numbers differ, however close (a float64 would merge them)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -30, max: 30 }), (mantissa, exponent) => {
        const a = `${mantissa}e${exponent}`;
        const b = `${mantissa + 1n}e${exponent}`;
        const wrap = (t: string): JsonValue => ({ kind: 'object', entries: [['maximum', { kind: 'number', text: t }]] });
        expect(canonicalJson(wrap(a))).not.toBe(canonicalJson(wrap(b)));
        expect(canonicalNumber(a)).toBe(canonicalNumber(`${mantissa}0e${exponent - 1}`));
      }),
      PARAMETERS,
    );
  });
});

/** A literal's exact value as n × 10^e, n a BigInt: the model compareNumbers is held to. */
function exactValue(text: string): { n: bigint; e: number } {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const n = BigInt(whole! + fraction);
  return { n: sign === '-' ? -n : n, e: Number(exponent) - fraction.length };
}

describe('compareNumbers against a model', () => {
  it('orders any two literals by their exact values', () => {
    const order = (a: string, b: string) => {
      const x = exactValue(a);
      const y = exactValue(b);
      const low = Math.min(x.e, y.e);
      const left = x.n * 10n ** BigInt(x.e - low);
      const right = y.n * 10n ** BigInt(y.e - low);
      return left < right ? -1 : left > right ? 1 : 0;
    };
    fc.assert(
      fc.property(literal, literal, (a, b) => {
        expect(compareNumbers(a, b)).toBe(order(a, b));
        expect(compareNumbers(a, a)).toBe(0);
      }),
      PARAMETERS,
    );
  });

  it('tells apart neighbours a float64 merges, and agrees on respellings of one value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -30, max: 30 }), (mantissa, exponent) => {
        expect(compareNumbers(`${mantissa}e${exponent}`, `${mantissa + 1n}e${exponent}`)).toBe(-1);
        expect(compareNumbers(`${mantissa + 1n}e${exponent}`, `${mantissa}e${exponent}`)).toBe(1);
        expect(compareNumbers(`${mantissa}e${exponent}`, `${mantissa}0e${exponent - 1}`)).toBe(0);
      }),
      PARAMETERS,
    );
  });
});

/** What the broker builds its own records from: safe integers only, any UTF-16 (lone surrogates too), keys of any spelling, integer-like ones included. */
const plainValue: fc.Arbitrary<Plain> = fc.letrec<{ value: Plain }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.oneof(text, fc.string({ unit: 'binary-ascii' }), fc.string({ unit: fc.constantFrom('\ud800', '\udfff', 'a', '"') })),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(text, fc.constantFrom('0', '10', '2', '-1', '01', 'hash', 'seq')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('writePlain against the tree writers', () => {
  it('writes what writeJson and canonicalJson write for the same value read as a tree, byte for byte', () => {
    fc.assert(
      fc.property(plainValue, (value) => {
        expect(writePlain(value)).toBe(writeJson(plain(value)));
        expect(writePlain(value, true)).toBe(canonicalJson(plain(value)));
      }),
      PARAMETERS,
    );
  });

  it('refuses a number that is not a safe integer, as plain() does', () => {
    for (const bad of [0.5, 2 ** 53, Number.NaN, Infinity]) {
      expect(() => writePlain({ n: bad })).toThrow(RangeError);
      expect(() => plain({ n: bad })).toThrow(RangeError);
    }
  });
});
