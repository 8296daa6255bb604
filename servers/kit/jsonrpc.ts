/**
 * JSON-RPC 2.0 messages as the kit sees them. Incoming lines are decoded with JSON.parse, which
 * is good enough for routing, but the id is taken as raw text from the line and echoed verbatim:
 * an id such as 9007199254740993 would not survive a float64 round trip, and a reply must carry
 * exactly the id the client sent. Replies are assembled as raw text.
 */
import { type RawText, writeString } from './json-text.js';

export type Incoming =
  /** A request: has an id and a method. `id` is the id's raw JSON text. */
  | { kind: 'request'; method: string; id: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  /** Valid JSON that is not a request or notification (e.g. a response from the client). */
  | { kind: 'other'; id: string | null }
  | { kind: 'unparseable' };

export function parseIncoming(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unparseable' };
  }
  if (!isRecord(value)) return { kind: 'other', id: null };
  const id = rawMemberText(text, 'id');
  const method = value['method'];
  if (typeof method !== 'string') return { kind: 'other', id };
  if (id === null) return { kind: 'notification', method, params: value['params'] };
  return { kind: 'request', method, id, params: value['params'] };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `result` is raw JSON text, whole or in pieces (and so is the reply); `id` is the raw id text, or
 * null for a reply to an unreadable line.
 */
export function resultText(id: string | null, result: string): string;
export function resultText(id: string | null, result: RawText): RawText;
export function resultText(id: string | null, result: RawText): RawText {
  const head = `{"jsonrpc":"2.0","id":${id ?? 'null'},"result":`;
  if (typeof result === 'string') return `${head}${result}}`;
  return function* () {
    yield head;
    yield* result();
    yield '}';
  };
}

/** `data`, when given, is raw JSON text. */
export function errorText(id: string | null, code: number, message: string, data?: string): string {
  return `{"jsonrpc":"2.0","id":${id ?? 'null'},"error":{"code":${code},"message":${writeString(message)}${data === undefined ? '' : `,"data":${data}`}}}`;
}

/** A notification the server sends of its own accord, without params. */
export function notificationText(method: string): string {
  return `{"jsonrpc":"2.0","method":${writeString(method)}}`;
}

export const PARSE_ERROR = -32700;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

/**
 * The raw text of the top-level member `key` of a JSON object text already known to be valid
 * (JSON.parse accepted it), or null if there is none. Like JSON.parse, the last duplicate wins.
 */
export function rawMemberText(json: string, key: string): string | null {
  let i = skipSpace(json, 0);
  if (json[i] !== '{') return null;
  let found: string | null = null;
  i = skipSpace(json, i + 1);
  while (json[i] === '"') {
    const nameEnd = endOfString(json, i);
    const name: unknown = JSON.parse(json.slice(i, nameEnd));
    const valueStart = skipSpace(json, skipSpace(json, nameEnd) + 1); // past the ':'
    const valueEnd = endOfValue(json, valueStart);
    if (name === key) found = json.slice(valueStart, valueEnd);
    i = skipSpace(json, valueEnd);
    if (json[i] === ',') i = skipSpace(json, i + 1);
  }
  return found;
}

function skipSpace(json: string, i: number): number {
  while (i < json.length && ' \t\r\n'.includes(json[i]!)) i++;
  return i;
}

/** `i` is at an opening quote; returns the index just past the closing one. */
function endOfString(json: string, i: number): number {
  for (i++; json[i] !== '"'; i++) if (json[i] === '\\') i++;
  return i + 1;
}

function endOfValue(json: string, i: number): number {
  const first = json[i];
  if (first === '"') return endOfString(json, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (;;) {
      const c = json[i];
      if (c === '"') {
        i = endOfString(json, i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      i++;
      if (depth === 0) return i;
    }
  }
  while (i < json.length && !',}] \t\r\n'.includes(json[i]!)) i++;
  return i;
}
