import type { ReceivedHints } from '../../agent/cache-hints.js';
import { expectation } from '../types.js';

/** The results MCP 2026-07-28 makes cacheable (server/utilities/caching.mdx, "Cacheable Results"). */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/**
 * The longest time to live a result may carry: `max` for a complete result of a cacheable method
 * answering a first request; 0 for any other, since caching.mdx says an interim result "carries
 * no caching hints" and a retry's result "MUST NOT be cached", and gives no other result hints.
 */
const limitOf = (hints: ReceivedHints, max: number): number => (CACHEABLE.has(hints.method) && !hints.interim && !hints.retry ? max : 0);

/** What a result was, in words, for a finding. */
const which = (hints: ReceivedHints, index: number): string =>
  `result ${index + 1} (${hints.method}${hints.interim ? ', input_required' : ''}${hints.retry ? ', a retry' : ''})`;

/**
 * What the agent was told it may keep, and for whom, of every result it received: a broker shows
 * each agent a listing, a resource, an answer decided for that agent (the operator's classes,
 * grants, pins, inspection), so a `cacheScope` other than `private` hands it to every user of a
 * shared cache, and a long `ttlMs` keeps it fresh after the broker's decision changed. Judged on
 * the hints as the agent received them, never on what the broker says of its caching.
 */
export default expectation({
  block: 'scenario',
  name: 'cache_hints',
  doc: "`{ max_ttl_ms }`: every result the agent received carries no `cacheScope` but `\"private\"` and no `ttlMs` but an integer from 0 to `max_ttl_ms`, and 0 at most on an `input_required` result, on a retry's result and on a result of a method that is not cacheable (2026-07-28)",
  properties: {
    cache_hints: { type: 'object', properties: { max_ttl_ms: { type: 'integer', minimum: 0 } }, required: ['max_ttl_ms'], additionalProperties: false },
  },
  checks: {
    'cache_hints.scope': { class: 'harm', doc: "no result reached the agent marked for a cache shared beyond its own authorization context (a cacheScope other than private)" },
    'cache_hints.ttl': { class: 'harm', doc: 'no result reached the agent fresh for longer than the scenario allows, nor one that must not be cached marked fresh at all' },
  },
  judge(expect, { cacheHints }, _judged, fail) {
    if (expect.cache_hints === undefined) return;
    const max = expect.cache_hints.max_ttl_ms;
    for (const [index, hints] of (cacheHints ?? []).entries()) {
      if (hints.cacheScope !== undefined && hints.cacheScope !== 'private') fail('cache_hints.scope', `cacheScope of ${which(hints, index)}`, 'private, or none', hints.cacheScope);
      if (hints.ttlMs === undefined) continue;
      const limit = limitOf(hints, max);
      const within = /^(0|[1-9][0-9]*)$/.test(hints.ttlMs) && BigInt(hints.ttlMs) <= BigInt(limit);
      if (!within) fail('cache_hints.ttl', `ttlMs of ${which(hints, index)}`, `an integer from 0 to ${limit}, or none`, hints.ttlMs);
    }
  },
});
