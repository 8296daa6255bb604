// The small readings of JSON the guards lean on, each on its own: JSON Pointers (RFC 6901) made,
// parsed and resolved, including the escapes and the indices a pointer may not name; the strings
// of a value, keys included; strings mapped with keys untouched; members replaced in place or
// added in order; and the canonical form's key order, which is UTF-16 code units, not code points.

import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/json/canonical.js';
import { codePoints, mapStrings, presentMembers, stringsIn, withMembers } from '../../src/json/members.js';
import { childPointer, parsePointer, resolvePointer } from '../../src/json/pointer.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { JsonObject } from '../../src/types.js';

const json = (text: string) => readJson(text);
const objectOf = (text: string) => readJson(text) as JsonObject;
const at = (text: string, pointer: string) => {
  const found = resolvePointer(json(text), pointer);
  return found === undefined ? undefined : writeJson(found);
};

describe('JSON Pointers', () => {
  it('escapes ~ before / in a child token, and names array indices as digits', () => {
    expect(childPointer('', 'a')).toBe('/a');
    expect(childPointer('/a', 'b/c~d')).toBe('/a/b~1c~0d');
    expect(childPointer('/a', '~1')).toBe('/a/~01');
    expect(childPointer('/a', 3)).toBe('/a/3');
    expect(childPointer('/a', '')).toBe('/a/');
  });

  it('parses tokens unescaped, ~1 before ~0, so ~01 stays ~1', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/a/b~1c/~0d')).toEqual(['a', 'b/c', '~d']);
    expect(parsePointer('/~01')).toEqual(['~1']);
    expect(parsePointer('/a~1~1b')).toEqual(['a//b']);
    expect(parsePointer('/~0~0')).toEqual(['~~']);
  });

  it.each([['a'], ['a/b'], ['/~'], ['/a~2'], ['/a/~b'], ['/~~0']])('refuses %j as no pointer', (pointer) => {
    expect(parsePointer(pointer)).toBeUndefined();
  });

  it('round-trips every key through childPointer and parsePointer', () => {
    for (const key of ['', '~', '/', '~0', '~1', 'a/~b', '//', '~~']) expect(parsePointer(childPointer('', key))).toEqual([key]);
  });

  it('resolves members and indices, and nothing that is not there', () => {
    const doc = '{"a":{"b/c":[10,{"d":true}],"~":1,"":2},"list":[0,1,2,3,4,5,6,7,8,9,10]}';
    expect(at(doc, '')).toBe(doc);
    expect(at(doc, '/a/b~1c/0')).toBe('10');
    expect(at(doc, '/a/b~1c/1/d')).toBe('true');
    expect(at(doc, '/a/~0')).toBe('1');
    expect(at(doc, '/a/')).toBe('2');
    expect(at(doc, '/list/10')).toBe('10');
    expect(at(doc, '/list/0')).toBe('0');
    for (const missing of ['/b', '/a/b~1c/2', '/a/b~1c/-', '/a/b~1c/01', '/a/b~1c/+1', '/a/b~1c/1.0', '/a/b~1c/ 1', '/list/1e1', '/a/b~1c/0/x', '/a/~', 'a']) {
      expect(at(doc, missing)).toBeUndefined();
    }
  });

  it('reads an index as an array index only: a key of digits names an object member', () => {
    expect(at('{"0":"zero","01":"one"}', '/0')).toBe('"zero"');
    expect(at('{"0":"zero","01":"one"}', '/01')).toBe('"one"');
    expect(at('["a"]', '/length')).toBeUndefined();
    expect(at('"text"', '/0')).toBeUndefined();
  });
});

describe('members', () => {
  it('finds every string of a value, keys included, in order', () => {
    expect(stringsIn(undefined)).toEqual([]);
    expect(stringsIn(json('1'))).toEqual([]);
    expect(stringsIn(json('null'))).toEqual([]);
    expect(stringsIn(json('"s"'))).toEqual(['s']);
    expect(stringsIn(json('{"k":["a",{"k2":"b"},3,true],"n":null}'))).toEqual(['k', 'a', 'k2', 'b', 'n']);
  });

  it('counts code points over several texts', () => {
    expect(codePoints([])).toBe(0);
    expect(codePoints(['ab', '\u{1F600}', ''])).toBe(3);
  });

  it('maps every string value and leaves keys and other values alone', () => {
    const upper = (text: string) => text.toUpperCase();
    expect(writeJson(mapStrings(json('{"k":["a",{"k2":"b"},3,true,null],"n":1}'), upper))).toBe('{"k":["A",{"k2":"B"},3,true,null],"n":1}');
    expect(writeJson(mapStrings(json('"x"'), upper))).toBe('"X"');
    expect(writeJson(mapStrings(json('7'), upper))).toBe('7');
  });

  it('replaces members where they stand and adds the missing ones after, in the order given', () => {
    const replaced = withMembers(objectOf('{"a":1,"b":2,"c":3}'), { b: json('"B"'), z: json('26'), y: json('25') });
    expect(writeJson(replaced)).toBe('{"a":1,"b":"B","c":3,"z":26,"y":25}');
    expect(writeJson(withMembers(objectOf('{"a":1}'), {}))).toBe('{"a":1}');
    // A key only inherited from Object.prototype is not a replacement.
    expect(writeJson(withMembers(objectOf('{"toString":1}'), {}))).toBe('{"toString":1}');
  });

  it('gives the members present, in the order of the keys asked for', () => {
    const present = presentMembers(objectOf('{"a":1,"b":2,"c":3}'), ['c', 'x', 'a']);
    expect(present.map(([key, value]) => [key, writeJson(value)])).toEqual([['c', '3'], ['a', '1']]);
    expect(presentMembers(objectOf('{}'), ['a'])).toEqual([]);
  });
});

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units at every level, keeps array order, and writes exact numbers', () => {
    expect(canonicalJson(json('{"b":1,"a":{"d":[3,1],"c":1.50},"A":1e2}'))).toBe('{"A":100,"a":{"c":1.5,"d":[3,1]},"b":1}');
  });

  it('orders a key above the BMP (a surrogate pair) before a BMP key past U+D7FF, as code units compare', () => {
    // By code points U+1F600 sorts after U+FFFD; by UTF-16 units its lead surrogate 0xD83D sorts first.
    expect(canonicalJson(json('{"\uFFFD":1,"\u{1F600}":2,"\u0041":3}'))).toBe('{"A":3,"\u{1F600}":2,"\uFFFD":1}');
  });

  it('gives the same text for the same value written two ways, and different text for different keys', () => {
    expect(canonicalJson(json('{ "x" : 1.0 , "y" : [ ] }'))).toBe(canonicalJson(json('{"y":[],"x":1}')));
    expect(canonicalJson(json('{"ab":1,"a":1}'))).toBe('{"a":1,"ab":1}');
  });
});
