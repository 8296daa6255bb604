// What MCP 2026-07-28 carries in every request instead of a handshake: the `_meta` members that
// name the request's protocol version, the client's capabilities and identity, and the log level
// it wants (basic/index.mdx, "_meta"; schema.ts `RequestMetaObject`), and the `resultType` every
// result carries (`"complete"`, or `"input_required"` for a multi round-trip request). Read and
// written on the broker's own JSON tree, for both sides of the broker alike.

import { member, object, plain, stringValue } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';

/** The revision spoken per request, with no initialize handshake. */
export const PER_REQUEST_REVISION = '2026-07-28';

/** The reserved `_meta` keys of a 2026-07-28 request and result. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The severities of a log level (MCP's `LoggingLevel`, RFC 5424's), least severe first. */
export const LOG_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** What a request's `_meta` says of its revision. */
export type RequestRevision =
  /** No per-request protocol version: a request of the handshake's revisions (2025-11-25 and before). */
  | { readonly kind: 'handshake' }
  | {
      readonly kind: 'per-request';
      /** The request's `clientCapabilities`, which every 2026-07-28 request must carry. */
      readonly capabilities: JsonObject;
      /** The log level it asks for; undefined when it asks for no log messages. */
      readonly logLevel: string | undefined;
    }
  /** `requested` is the version it named (as text), which the broker does not speak per request. */
  | { readonly kind: 'unsupported'; readonly requested: string }
  | { readonly kind: 'malformed'; readonly problem: string };

/** A request's `_meta`, when it is an object. */
export function requestMeta(params: JsonValue | undefined): JsonObject | undefined {
  const meta = params?.kind === 'object' ? member(params, '_meta') : undefined;
  return meta?.kind === 'object' ? meta : undefined;
}

/** The revision a request speaks, read from its `_meta` alone. */
export function readRequestRevision(params: JsonValue | undefined): RequestRevision {
  const meta = requestMeta(params);
  const version = meta === undefined ? undefined : member(meta, META.protocolVersion);
  if (meta === undefined || version === undefined) return { kind: 'handshake' };
  if (version.kind !== 'string') return { kind: 'unsupported', requested: version.kind === 'number' ? version.text : version.kind };
  if (version.value !== PER_REQUEST_REVISION) return { kind: 'unsupported', requested: version.value };
  // A required per-request field missing makes the request malformed (basic/index.mdx, "Per-request protocol fields").
  const capabilities = member(meta, META.clientCapabilities);
  if (capabilities?.kind !== 'object') return { kind: 'malformed', problem: `${META.clientCapabilities} ${capabilities === undefined ? 'is required' : 'must be an object'}` };
  const level = member(meta, META.logLevel);
  if (level !== undefined && (level.kind !== 'string' || !LOG_LEVELS.includes(level.value))) {
    return { kind: 'malformed', problem: `${META.logLevel} must be one of ${LOG_LEVELS.join(', ')}` };
  }
  return { kind: 'per-request', capabilities, logLevel: stringValue(level) };
}

/** `params` with these `_meta` members set (replacing any of the same key the sender wrote); other members kept. */
export function withMeta(params: JsonValue | undefined, entries: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const base = params?.kind === 'object' ? params : object([]);
  const set = entries.filter(([, value]) => value !== undefined).map(([key]) => key);
  const meta = requestMeta(base)?.entries.filter(([key]) => !set.includes(key)) ?? [];
  const rest = base.entries.filter(([key]) => key !== '_meta');
  return object([...rest, ['_meta', object([...meta, ...entries])]]);
}

/**
 * The member of a request's params that Streamable HTTP's `Mcp-Name` header mirrors, by method
 * (basic/transports/streamable-http.mdx, "Standard Request Headers").
 */
export const MIRRORED_NAME: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** The result types of MCP 2026-07-28 the broker acts on. */
export const RESULT_TYPE = { complete: 'complete', inputRequired: 'input_required', task: 'task' } as const;

/** The tasks extension's identifier (ext-tasks specification/draft/tasks.md), under a capabilities object's `extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The kinds of result the broker answers with: `task` is the tasks extension's (src/session/tasks.ts). */
export type ResultType = (typeof RESULT_TYPE)[keyof typeof RESULT_TYPE];

/**
 * A result's `resultType`: absent is `"complete"` (the spec's MUST for an older server's result);
 * anything but a string is returned as undefined, which no caller takes for either type.
 */
export function resultTypeOf(result: JsonValue): string | undefined {
  if (result.kind !== 'object') return undefined;
  const type = member(result, 'resultType');
  return type === undefined ? RESULT_TYPE.complete : stringValue(type);
}

/** The object without these members. */
export function withoutMembers(target: JsonObject, keys: readonly string[]): JsonObject {
  return object(target.entries.filter(([key]) => !keys.includes(key)));
}

/** The members of a result that say how it may be cached (server/utilities/caching.mdx). */
export const CACHE_MEMBERS = ['ttlMs', 'cacheScope'] as const;

/** The members a result carries to say what protocol it answers in, which the broker sets itself. */
export const PROTOCOL_RESULT_MEMBERS = ['resultType', ...CACHE_MEMBERS];

/** An `UnsupportedProtocolVersionError`'s error object. */
export function unsupportedVersion(code: number, requested: string, supported: readonly string[]): JsonObject {
  return object([
    ['code', plain(code)],
    ['message', plain(`Unsupported protocol version: ${requested}`)],
    ['data', plain({ supported: [...supported], requested })],
  ]);
}
