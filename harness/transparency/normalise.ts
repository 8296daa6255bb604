import { isLosslessNumber, isSafeNumber, parse as parseLossless } from 'lossless-json';
import type { Answer } from '../agent/client.js';

/**
 * What of an answer is compared, normalised so that only what legitimately differs between the
 * direct and the candidate route is set aside. Each rule says why it is sound; none drops content.
 */

/**
 * Times and identifiers a server makes up afresh for each session: ISO 8601 instants, the output
 * of Date#toString and of toLocaleTimeString ("4:05:12 AM", server-everything's dynamic
 * resources), and UUIDs (Streamable HTTP session ids). The two routes run at different moments in
 * different sessions, so these differ whatever the broker does; each is replaced by a token
 * naming its kind, and the text around it is still compared.
 */
const VOLATILE: ReadonlyArray<[RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<instant>'],
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}(?: \([^)]*\))?/g, '<date>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:\s?[AP]M)?/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
];

export function normaliseText(text: string): string {
  return VOLATILE.reduce((current, [pattern, token]) => current.replace(pattern, token), text);
}

/**
 * A base64 blob that decodes to UTF-8 text is compared as that text, normalised: a blob made
 * from a timestamped string (server-everything's dynamic blobs) differs only in its timestamp.
 * Decoding loses nothing: the bytes are compared, not their encoding's padding.
 */
function blobText(blob: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob)) return undefined;
  const bytes = Buffer.from(blob, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return Buffer.from(text, 'utf8').equals(bytes) && !/[\u0000-\u0008\u000e-\u001f]/.test(text) ? normaliseText(text) : undefined;
}

/**
 * A plain JSON value: objects with sorted keys (JSON objects are unordered), strings normalised,
 * numbers as their value (lossless: a big integer keeps every digit; 1.0 and 1 are one number).
 */
export function canonical(value: unknown, key?: string): unknown {
  if (isLosslessNumber(value)) return isSafeNumber(value.value) ? Number(value.value) : value.value;
  if (typeof value === 'string') {
    if (key === 'blob') {
      const text = blobText(value);
      if (text !== undefined) return { 'decoded-utf8': text };
    }
    return normaliseText(value);
  }
  if (Array.isArray(value)) return value.map((item) => canonical(item));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([name, member]) => [name, canonical(member, name)]));
  }
  return value;
}

/** An answer's result (or error) as the agent decoded it: the raw line parsed losslessly, the envelope (jsonrpc, id) dropped. */
export function payloadOf(answer: Answer): unknown {
  if (answer.kind !== 'result' && answer.kind !== 'error') return undefined;
  const message = parseLossless(answer.raw) as Record<string, unknown>;
  return answer.kind === 'result' ? message.result : message.error;
}

/**
 * The candidate's result without the `_meta` members the direct result does not have: a broker's
 * own marks (the reference's receipt) annotate the answer and are not the server's content. A
 * `_meta` member the server sent is kept and compared. An empty `_meta` left behind goes too.
 */
export function withoutOwnMeta(candidate: unknown, direct: unknown): unknown {
  if (!isObject(candidate) || !isObject(candidate._meta)) return candidate;
  const server = isObject(direct) && isObject(direct._meta) ? direct._meta : {};
  const kept = Object.fromEntries(Object.entries(candidate._meta).filter(([name]) => Object.hasOwn(server, name)));
  const { _meta: _dropped, ...rest } = candidate;
  return Object.keys(kept).length === 0 && !(isObject(direct) && isObject(direct._meta)) ? rest : { ...rest, _meta: kept };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
