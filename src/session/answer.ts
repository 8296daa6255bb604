// How the broker answers one request of the agent's, in the revision that request spoke. An agent
// of the handshake's revisions (2025-11-25 and before) gets results as the broker makes them; a
// 2026-07-28 request gets every result with `resultType`, and the results the spec makes cacheable
// with the broker's own caching hints (the guard cache-hints-private, src/guards/cache-hints.ts).
// Either way the members that say what protocol a result answers in are the broker's to set: a
// server's `resultType` never reaches the agent as the server wrote it, nor its `ttlMs` or
// `cacheScope` unless that guard is disabled.

import { errorLine, resultLine } from '../wire/jsonrpc.js';
import { CACHE_MEMBERS, PROTOCOL_RESULT_MEMBERS, RESULT_TYPE, type ResultType, withoutMembers } from '../wire/revision.js';
import { object, plain } from '../json/tree.js';
import { presentMembers } from '../json/members.js';
import type { ClientFacts, JsonObject, JsonValue } from '../types.js';

/** What a 2026-07-28 request said of itself in its `_meta`. */
export interface PerRequest {
  /** The capabilities it declared: what a server may ask of the agent while answering it. */
  readonly client: ClientFacts;
  /** The log level it asked for; undefined, no log message reaches the agent for it. */
  readonly logLevel: string | undefined;
}

/** The results a 2026-07-28 server must give caching hints (server/utilities/caching.mdx, "Cacheable Results"). */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

export interface Answer {
  /** Undefined for a request of the handshake's revisions. */
  readonly perRequest: PerRequest | undefined;
  /**
   * Answers with a result; `type` marks the broker's own interim results: a multi round-trip
   * request's `input_required`, a call's `task` (the tasks extension).
   */
  result(value: JsonValue, type?: ResultType): void;
  error(error: JsonObject): void;
}

/** `relayHints`: the caching hints a result carries (the server's) reach the agent as they are, cache-hints-private disabled. */
export function answerTo(id: JsonValue, method: string, perRequest: PerRequest | undefined, send: (line: string) => void, relayHints = false): Answer {
  return {
    perRequest,
    result(value, type = RESULT_TYPE.complete) {
      send(resultLine(id, perRequest === undefined ? withoutProtocol(value) : perRequestResult(method, value, type, relayHints)));
    },
    error(error) {
      send(errorLine(id, error));
    },
  };
}

function withoutProtocol(value: JsonValue): JsonValue {
  return value.kind === 'object' ? withoutMembers(value, PROTOCOL_RESULT_MEMBERS) : value;
}

/**
 * The results that are a task (the tasks extension, src/session/tasks.ts): the broker built them,
 * and their `ttlMs` is the task's time to live, not a caching hint.
 */
const TASK_RESULTS = new Set(['tasks/get']);

function perRequestResult(method: string, value: JsonValue, type: ResultType, relayHints: boolean): JsonValue {
  if (value.kind !== 'object') return value;
  const cacheable = type === RESULT_TYPE.complete && CACHEABLE.has(method);
  const task = type === RESULT_TYPE.task || TASK_RESULTS.has(method);
  // cache-hints-private disabled: the hints the result brought from the server, as it wrote them.
  const relayed = relayHints && !task ? presentMembers(value, CACHE_MEMBERS) : [];
  // Every listing the broker answers is what Load decided under this operator's configuration
  // (its tools' classes, renames, withheld items), and resources/read is answered through the
  // operator's guards: shared across authorization contexts it would hand one operator's view to
  // another's clients, so the scope is always "private" (caching.mdx: "private" may be reused
  // only within the same authorization context). The time to live is 0, immediately stale: the
  // broker cannot promise that the server's next answer, or its own after a restart with a
  // reviewed manifest, will be the same.
  const own = [
    ['ttlMs', cacheable ? plain(0) : undefined],
    ['cacheScope', cacheable ? plain('private') : undefined],
  ] as const;
  return object([
    ['resultType', plain(type)],
    ...withoutMembers(value, task ? ['resultType'] : PROTOCOL_RESULT_MEMBERS).entries,
    ...(relayed.length > 0 ? relayed : own),
  ]);
}
