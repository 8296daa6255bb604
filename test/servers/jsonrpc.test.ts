import { describe, expect, it } from 'vitest';
import { errorText, parseIncoming, rawMemberText, resultText } from '../../servers/kit/jsonrpc.js';

describe('rawMemberText', () => {
  it('returns the raw text of a top-level member, whatever its form', () => {
    expect(rawMemberText('{"id":9007199254740993}', 'id')).toBe('9007199254740993');
    expect(rawMemberText('{ "jsonrpc" : "2.0" , "id" :\t"a\\"b" }', 'id')).toBe('"a\\"b"');
    expect(rawMemberText('{"params":{"id":1,"s":"}"},"id":1.50}', 'id')).toBe('1.50');
    expect(rawMemberText('{"id":[1,{"x":"]"}]}', 'id')).toBe('[1,{"x":"]"}]');
  });

  it('matches escaped member names and lets the last duplicate win, as JSON.parse does', () => {
    expect(rawMemberText('{"\\u0069d":7}', 'id')).toBe('7');
    expect(rawMemberText('{"id":1,"id":2}', 'id')).toBe('2');
  });

  it('finds nothing where there is no such member', () => {
    expect(rawMemberText('{"method":"ping","params":{"id":3}}', 'id')).toBeNull();
    expect(rawMemberText('[1]', 'id')).toBeNull();
  });
});

describe('parseIncoming', () => {
  it('tells requests, notifications, other JSON and garbage apart', () => {
    expect(parseIncoming('{"jsonrpc":"2.0","id":1e0,"method":"ping"}')).toEqual({
      kind: 'request',
      method: 'ping',
      id: '1e0',
      params: undefined,
    });
    expect(parseIncoming('{"method":"notifications/initialized","params":{}}')).toEqual({
      kind: 'notification',
      method: 'notifications/initialized',
      params: {},
    });
    expect(parseIncoming('{"jsonrpc":"2.0","id":5,"result":{}}')).toEqual({ kind: 'other', id: '5' });
    expect(parseIncoming('[]')).toEqual({ kind: 'other', id: null });
    expect(parseIncoming('{"id":')).toEqual({ kind: 'unparseable' });
  });
});

describe('replies', () => {
  it('echo the raw id text', () => {
    expect(resultText('9007199254740993', '{}')).toBe('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}');
    expect(errorText(null, -32700, 'bad "line"')).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad \\"line\\""}}',
    );
  });
});
