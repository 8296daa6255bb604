// JSON-RPC messages as the broker reads and writes them (src/wire/jsonrpc.ts), each rule on its
// own: what makes a line a request, a notification, a result or an error, every reason a line is
// none of them with the code that answers it, and the exact lines the broker writes.
// wire.property.test.ts holds the properties over hostile lines.

import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { ERROR, brokerError, errorLine, notificationLine, parseMessage, requestLine, resultLine } from '../../src/wire/jsonrpc.js';
import type { JsonObject } from '../../src/types.js';

/** The message with its JSON values written out, for exact comparison. */
function read(line: string) {
  const message = parseMessage(line);
  const text = (value: unknown) => (value === undefined ? undefined : writeJson(value as never));
  switch (message.kind) {
    case 'unreadable':
      return message;
    case 'notification':
      return { kind: message.kind, method: message.method, params: text(message.params) };
    case 'request':
      return { kind: message.kind, id: text(message.id), method: message.method, params: text(message.params) };
    case 'result':
      return { kind: message.kind, id: text(message.id), result: text(message.result) };
    case 'error':
      return { kind: message.kind, id: text(message.id), error: text(message.error) };
  }
}

describe('parseMessage', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"}}', { kind: 'request', id: '1', method: 'tools/list', params: '{"cursor":"c"}' }],
    ['{"jsonrpc":"2.0","id":"a","method":"ping"}', { kind: 'request', id: '"a"', method: 'ping', params: undefined }],
    ['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', { kind: 'request', id: '9007199254740993', method: 'ping', params: undefined }],
    ['{"jsonrpc":"2.0","method":"notifications/initialized"}', { kind: 'notification', method: 'notifications/initialized', params: undefined }],
    ['{"method":"m","jsonrpc":"2.0","params":[1]}', { kind: 'notification', method: 'm', params: '[1]' }],
    ['{"jsonrpc":"2.0","id":1,"result":{}}', { kind: 'result', id: '1', result: '{}' }],
    ['{"jsonrpc":"2.0","id":null,"result":null}', { kind: 'result', id: 'null', result: 'null' }],
    ['{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no","data":{"k":1}}}', { kind: 'error', id: '2', error: '{"code":-32601,"message":"no","data":{"k":1}}' }],
    ['{"jsonrpc":"2.0","id":2,"error":{"code":7,"message":""}}', { kind: 'error', id: '2', error: '{"code":7,"message":""}' }],
  ])('reads %s', (line, expected) => {
    expect(read(line)).toEqual(expected);
  });

  it.each([
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', 'not a JSON-RPC object'],
    ['"text"', 'not a JSON-RPC object'],
    ['{"id":1,"method":"ping"}', 'jsonrpc is not "2.0"'],
    ['{"jsonrpc":2.0,"id":1,"method":"ping"}', 'jsonrpc is not "2.0"'],
    ['{"jsonrpc":"2.1","id":1,"method":"ping"}', 'jsonrpc is not "2.0"'],
    ['{"jsonrpc":"2.0","id":true,"method":"ping"}', 'id is not a string or a number'],
    ['{"jsonrpc":"2.0","id":{},"result":{}}', 'id is not a string or a number'],
    ['{"jsonrpc":"2.0","id":[1],"result":{}}', 'id is not a string or a number'],
    ['{"jsonrpc":"2.0","id":1,"method":7}', 'method is not a string'],
    ['{"jsonrpc":"2.0","method":null}', 'method is not a string'],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', 'a request id is null'],
    ['{"jsonrpc":"2.0","result":{}}', 'neither a request nor a response'],
    ['{"jsonrpc":"2.0"}', 'neither a request nor a response'],
    ['{"jsonrpc":"2.0","id":1}', 'a response needs exactly one of result and error'],
    ['{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}', 'a response needs exactly one of result and error'],
    ['{"jsonrpc":"2.0","id":1,"error":"bad"}', 'error is not an object'],
    ['{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}', 'error.code is not an integer'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}', 'error.code is not an integer'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}', 'error.code is not an integer'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1e3,"message":"x"}}', 'error.code is not an integer'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-1}}', 'error.message is not a string'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":1}}', 'error.message is not a string'],
  ])('refuses %s as an invalid request: %s', (line, problem) => {
    expect(parseMessage(line)).toEqual({ kind: 'unreadable', code: ERROR.invalidRequest, problem, overLimit: false });
  });

  it('refuses what is not JSON as a parse error, saying whether a reader limit stopped it', () => {
    expect(parseMessage('{"jsonrpc":')).toEqual({ kind: 'unreadable', code: ERROR.parse, problem: 'not valid JSON (unexpected end of text at offset 11)', overLimit: false });
    const deep = parseMessage(`${'['.repeat(100)}${']'.repeat(100)}`);
    expect(deep).toMatchObject({ kind: 'unreadable', code: ERROR.parse, overLimit: true });
  });
});

describe('the lines the broker writes', () => {
  const id = readJson('7');
  it('writes requests, notifications, results and errors with jsonrpc first and nothing undefined', () => {
    expect(requestLine(id, 'tools/call', readJson('{"name":"t"}'))).toBe('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}');
    expect(requestLine(id, 'ping', undefined)).toBe('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(notificationLine('notifications/cancelled', readJson('{"requestId":7}'))).toBe('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}');
    expect(notificationLine('notifications/initialized', undefined)).toBe('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(resultLine(id, readJson('{"content":[]}'))).toBe('{"jsonrpc":"2.0","id":7,"result":{"content":[]}}');
    expect(errorLine(id, brokerError(ERROR.invalidParams, 'Invalid params'))).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params"}}');
    expect(writeJson(brokerError(ERROR.upstream, 'gone') as JsonObject)).toBe('{"code":-32000,"message":"gone"}');
  });

  it('uses the codes JSON-RPC and MCP give', () => {
    expect(ERROR).toEqual({ parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, upstream: -32000, headerMismatch: -32020, unsupportedProtocolVersion: -32022 });
  });
});
