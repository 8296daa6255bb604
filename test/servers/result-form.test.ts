import { describe, expect, it } from 'vitest';
import { statelessForm, withLeadingMembers } from '../../servers/kit/result-form.js';

const text = (raw: ReturnType<typeof withLeadingMembers>) => (typeof raw === 'string' ? raw : [...raw()].join(''));

describe('withLeadingMembers', () => {
  it('writes the members first and keeps the object byte for byte after its brace', () => {
    expect(withLeadingMembers('{ "a" :1}', '"m":0')).toBe('{"m":0, "a" :1}');
    expect(withLeadingMembers('{}', '"m":0')).toBe('{"m":0}');
    expect(withLeadingMembers(' { } ', '"m":0')).toBe('{"m":0 } ');
  });

  it('keeps an object in pieces in pieces, however its first pieces are cut', () => {
    const pieces = (...parts: string[]) => () => parts;
    expect(text(withLeadingMembers(pieces('{', '', ' ', '"a":1', '}'), '"m":0'))).toBe('{"m":0, "a":1}');
    expect(text(withLeadingMembers(pieces('{', '}'), '"m":0'))).toBe('{"m":0}');
    expect(typeof withLeadingMembers(pieces('{}'), '"m":0')).toBe('function');
  });

  it('refuses text that is not an object', () => {
    expect(() => withLeadingMembers('[1]', '"m":0')).toThrow();
  });
});

describe('statelessForm', () => {
  it('adds the cache hints to the cacheable results only', () => {
    expect(statelessForm('{}', 'tools/list')).toBe('{"resultType":"complete","ttlMs":1000,"cacheScope":"private"}');
    expect(statelessForm('{}', 'tools/call')).toBe('{"resultType":"complete"}');
  });

  it('writes the hints given as given, and on any result it is told to', () => {
    expect(statelessForm('{}', 'resources/read', { scope: 'public', ttl: '-5' })).toBe('{"resultType":"complete","ttlMs":-5,"cacheScope":"public"}');
    expect(statelessForm('{}', 'tools/call', { scope: 'public', ttl: '9007199254740993' }, true)).toBe('{"resultType":"complete","ttlMs":9007199254740993,"cacheScope":"public"}');
    expect(statelessForm('{}', 'tools/list', { scope: 'public', ttl: '1' }, false)).toBe('{"resultType":"complete"}');
  });
});
