// The inspection bounds on their own (src/inspect/bounds.ts): each bound at the value it allows
// and one past it, with the exact reason, and code points counted as the bounds count them
// (a surrogate pair is one, a lone surrogate is one). result-path.test.ts shows the bounds at
// work on a tool result.

import { describe, expect, it } from 'vitest';
import { INSPECTION_BOUNDS, boundsProblem, codePoints } from '../../src/inspect/bounds.js';
import type { JsonValue } from '../../src/types.js';

const { maxDepth, maxNodes, maxStringChars, maxTotalChars } = INSPECTION_BOUNDS;
const str = (value: string): JsonValue => ({ kind: 'string', value });
const arr = (items: JsonValue[]): JsonValue => ({ kind: 'array', items });
const obj = (entries: [string, JsonValue][]): JsonValue => ({ kind: 'object', entries });
const NUM: JsonValue = { kind: 'number', text: '1' };
/** `depth` arrays, each inside the one before, around a number. */
const nested = (depth: number, wrap: (inner: JsonValue) => JsonValue = (inner) => arr([inner])): JsonValue => {
  let value: JsonValue = NUM;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
};
const EMOJI = '\u{1F600}';

describe('codePoints', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    [EMOJI, 1],
    [`a${EMOJI}b`, 3],
    ['\uD83D', 1],
    ['\uD83Da', 2],
    ['\uDE00\uD83D', 2],
    ['\uD83D\uD83D\uDE00', 2],
    ['\uDBFF\uDFFF', 1],
    ['\uD800\uDC00', 1],
    ['\uD7FF\uDC00', 2],
    ['\uDC00\uDC00', 2],
    ['\uD83D\uE000', 2],
    ['\uD83D\uDBFF', 2],
  ])('counts %j as %i', (text, expected) => {
    expect(codePoints(text)).toBe(expected);
  });
});

describe('boundsProblem', () => {
  it('passes nothing at all, and a scalar', () => {
    expect(boundsProblem(undefined)).toBeNull();
    expect(boundsProblem(NUM)).toBeNull();
  });

  it(`allows ${maxDepth} levels of arrays or objects, and refuses one more`, () => {
    expect(boundsProblem(nested(maxDepth))).toBeNull();
    expect(boundsProblem(nested(maxDepth + 1))).toBe(`it nests deeper than ${maxDepth}`);
    const inObjects = (inner: JsonValue) => obj([['k', inner]]);
    expect(boundsProblem(nested(maxDepth, inObjects))).toBeNull();
    expect(boundsProblem(nested(maxDepth + 1, inObjects))).toBe(`it nests deeper than ${maxDepth}`);
  });

  it('counts a scalar as no level of its own', () => {
    expect(boundsProblem(nested(maxDepth, (inner) => arr([NUM, str('x'), inner])))).toBeNull();
  });

  it(`allows ${maxNodes} values, the container among them, and refuses one more`, () => {
    expect(boundsProblem(arr(Array.from({ length: maxNodes - 1 }, () => NUM)))).toBeNull();
    expect(boundsProblem(arr(Array.from({ length: maxNodes }, () => NUM)))).toBe(`it has more than ${maxNodes} values`);
    // Keys are not values.
    expect(boundsProblem(obj(Array.from({ length: maxNodes - 1 }, (_, i): [string, JsonValue] => [`k${i}`, NUM])))).toBeNull();
  });

  it(`allows a string of ${maxStringChars} code points, and refuses one more, as a value, a key or a string given apart`, () => {
    const longest = 'a'.repeat(maxStringChars);
    const tooLong = `${longest}a`;
    const reason = `a string of ${maxStringChars + 1} characters exceeds ${maxStringChars}`;
    expect(boundsProblem(str(longest))).toBeNull();
    expect(boundsProblem(str(tooLong))).toBe(reason);
    expect(boundsProblem(obj([[tooLong, NUM]]))).toBe(reason);
    expect(boundsProblem(undefined, [tooLong])).toBe(reason);
    expect(boundsProblem(undefined, [longest])).toBeNull();
  });

  it('measures a long string in code points, not UTF-16 units', () => {
    // Twice as many units as the bound, and exactly as many code points.
    expect(boundsProblem(str(EMOJI.repeat(maxStringChars)))).toBeNull();
    expect(boundsProblem(str(EMOJI.repeat(maxStringChars + 1)))).toBe(`a string of ${maxStringChars + 1} characters exceeds ${maxStringChars}`);
  });

  it(`allows ${maxTotalChars} code points over every string, keys and strings given apart included, and refuses one more`, () => {
    const half = 'a'.repeat(maxTotalChars / 2);
    const reason = `its strings exceed ${maxTotalChars} characters together`;
    expect(boundsProblem(arr([str(half), str(half)]))).toBeNull();
    expect(boundsProblem(arr([str(half), str(half), str('a')]))).toBe(reason);
    expect(boundsProblem(obj([[half, str(half)], ['a', NUM]]))).toBe(reason);
    expect(boundsProblem(str(half), [half])).toBeNull();
    expect(boundsProblem(str('a'), [half, half])).toBe(reason);
    expect(boundsProblem(undefined, [half, half, 'a'])).toBe(reason);
  });

  it('judges a value the broker cannot walk by recursion: 100,000 levels are refused, not a stack overflow', () => {
    expect(boundsProblem(nested(100_000))).toBe(`it nests deeper than ${maxDepth}`);
  });
});
