import { describe, expect, it } from 'vitest';
import { NumberLiteral, writeJson, writeString, type JsonValue } from '../../servers/kit/json-text.js';

const sample: JsonValue = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: new NumberLiteral('9007199254740993') } },
  required: ['limit'],
  tags: ['a\u001e\n"', true, null, 1.5],
};

describe('writeJson', () => {
  it('writes plain text compactly, keys in authored order, number literals verbatim', () => {
    expect(writeJson(sample)).toBe(
      '{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":9007199254740993}},' +
        '"required":["limit"],"tags":["a\\u001e\\n\\"",true,null,1.5]}',
    );
  });

  it('writes the reshuffled style as other bytes for the same value, on one line', () => {
    const plain = writeJson(sample, 'plain');
    const reshuffled = writeJson(sample, 'reshuffled');
    expect(reshuffled).not.toBe(plain);
    expect(JSON.parse(reshuffled)).toEqual(JSON.parse(plain));
    expect(reshuffled).not.toMatch(/[\r\n]/);
    expect(reshuffled).toContain('9007199254740993');
    // Keys reversed, vowels escaped.
    expect(reshuffled.indexOf('t\\u0061gs')).toBeLessThan(reshuffled.indexOf('typ\\u0065'));
  });

  it('escapes vowels without corrupting existing escapes whose hex digits are vowels', () => {
    const text = 'e\u001e\u00e9\ud800a';
    const written = writeString(text, 'reshuffled');
    expect(written).toBe('"\\u0065\\u001e\u00e9\\ud800\\u0061"');
    expect(JSON.parse(written)).toBe(text);
  });

  it('writes empty containers in both styles', () => {
    expect(writeJson({ a: [], b: {} })).toBe('{"a":[],"b":{}}');
    expect(writeJson({ a: [], b: {} }, 'reshuffled')).toBe('{ "b" :\t{ \t} ,  "\\u0061" :\t[ \t]\t}');
  });

  it('writes nesting far deeper than the call stack would allow a recursive writer', () => {
    let value: JsonValue = 'x';
    for (let i = 0; i < 200_000; i++) value = i % 2 === 0 ? [value] : { k: value };
    const written = writeJson(value);
    expect(written).toHaveLength(100_000 * '[]'.length + 100_000 * '{"k":}'.length + '"x"'.length);
    expect(written.startsWith('{"k":[{"k":[')).toBe(true);
    expect(written).toContain('{"k":["x"]}]');
    expect(written.endsWith(']}')).toBe(true);
  });

  it('refuses what is not a JSON number', () => {
    expect(() => new NumberLiteral('01')).toThrow();
    expect(() => new NumberLiteral('1e')).toThrow();
    expect(() => writeJson(Number.NaN)).toThrow();
  });
});
