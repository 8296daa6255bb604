// JSON-RPC 2.0 messages as MCP uses them, read from and written to the broker's own JSON tree so
// that ids, params and results pass through without a float64 or a duplicate key in between.

import { JsonReadError, readJson } from '../json/reader.js';
import { member, object, plain } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import type { JsonObject, JsonValue } from '../types.js';

export type Message =
  | { readonly kind: 'request'; readonly id: JsonValue; readonly method: string; readonly params: JsonValue | undefined }
  | { readonly kind: 'notification'; readonly method: string; readonly params: JsonValue | undefined }
  | { readonly kind: 'result'; readonly id: JsonValue; readonly result: JsonValue }
  | { readonly kind: 'error'; readonly id: JsonValue; readonly error: JsonObject };

/** A line that holds no valid message, with the JSON-RPC code that answers it. */
export interface Unreadable {
  readonly kind: 'unreadable';
  readonly code: number;
  readonly problem: string;
  /** Well-formed as far as it was read, but past one of the reader's limits (depth, values, length). */
  readonly overLimit: boolean;
}

export const ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** Implementation-defined: the upstream server failed, timed out or is gone. */
  upstream: -32000,
  /** MCP 2026-07-28: an HTTP header disagrees with the body it comes with (HeaderMismatchError). */
  headerMismatch: -32020,
  /** MCP 2026-07-28: the request names a protocol version the receiver does not speak (UnsupportedProtocolVersionError). */
  unsupportedProtocolVersion: -32022,
} as const;

/** Parses one line into a message, or says why it is not a valid JSON-RPC 2.0 message. */
export function parseMessage(line: string): Message | Unreadable {
  let value: JsonValue;
  try {
    value = readJson(line);
  } catch (err) {
    const overLimit = err instanceof JsonReadError && err.overLimit;
    return { kind: 'unreadable', code: ERROR.parse, problem: `not valid JSON (${(err as Error).message})`, overLimit };
  }
  const envelope = readEnvelope(value);
  return typeof envelope === 'string' ? { kind: 'unreadable', code: ERROR.invalidRequest, problem: envelope, overLimit: false } : envelope;
}

function readEnvelope(value: JsonValue): Message | string {
  // MCP since 2025-06-18 has no batches; an array is refused, never split into messages.
  if (value.kind !== 'object') return 'not a JSON-RPC object';
  const version = member(value, 'jsonrpc');
  if (version?.kind !== 'string' || version.value !== '2.0') return 'jsonrpc is not "2.0"';
  const id = member(value, 'id');
  // MCP ids are strings or numbers; null is only for answering an unreadable request.
  if (id !== undefined && id.kind !== 'string' && id.kind !== 'number' && id.kind !== 'null') {
    return 'id is not a string or a number';
  }
  const method = member(value, 'method');
  if (method !== undefined) {
    if (method.kind !== 'string') return 'method is not a string';
    const params = member(value, 'params');
    if (id === undefined) return { kind: 'notification', method: method.value, params };
    if (id.kind === 'null') return 'a request id is null';
    return { kind: 'request', id, method: method.value, params };
  }
  if (id === undefined) return 'neither a request nor a response';
  const result = member(value, 'result');
  const error = member(value, 'error');
  if ((result === undefined) === (error === undefined)) return 'a response needs exactly one of result and error';
  if (result !== undefined) return { kind: 'result', id, result };
  if (error?.kind !== 'object') return 'error is not an object';
  const code = member(error, 'code');
  if (code?.kind !== 'number' || !/^-?\d+$/.test(code.text)) return 'error.code is not an integer';
  if (member(error, 'message')?.kind !== 'string') return 'error.message is not a string';
  return { kind: 'error', id, error };
}

export function requestLine(id: JsonValue, method: string, params: JsonValue | undefined): string {
  return writeJson(object([['jsonrpc', plain('2.0')], ['id', id], ['method', plain(method)], ['params', params]]));
}

export function notificationLine(method: string, params: JsonValue | undefined): string {
  return writeJson(object([['jsonrpc', plain('2.0')], ['method', plain(method)], ['params', params]]));
}

export function resultLine(id: JsonValue, result: JsonValue): string {
  return writeJson(object([['jsonrpc', plain('2.0')], ['id', id], ['result', result]]));
}

/** An error response; `error` is either the broker's own or one received and passed on. */
export function errorLine(id: JsonValue, error: JsonObject): string {
  return writeJson(object([['jsonrpc', plain('2.0')], ['id', id], ['error', error]]));
}

export function brokerError(code: number, message: string): JsonObject {
  return object([['code', plain(code)], ['message', plain(message)]]);
}
