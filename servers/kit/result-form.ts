/**
 * The members a 2026-07-28 result carries besides its own: `resultType` on every result, and the
 * cache hints (`ttlMs`, `cacheScope`) on the results the revision makes cacheable. The hints are
 * set here alone, so a knob that makes them hostile has one place to act.
 */
import type { RawText } from './json-text.js';

/**
 * schema/2026-07-28 Result.resultType: "Servers implementing this protocol version MUST include
 * this field"; `complete` is an ordinary result (an `input_required` one is built in mrtr.ts).
 */
const COMPLETE = '"resultType":"complete"';

/**
 * The cache hints a server writes, as text: `scope` is written as a JSON string and `ttl` as the
 * number literal given, unread, so a hostile server (knob `cache_hint`) can say `public`, a scope
 * the spec does not have, a negative time to live or one no 64-bit float holds.
 */
export interface CacheHint {
  readonly scope: string;
  readonly ttl: string;
}

/**
 * Honest hints: the kit's listings change with the phase, and some of what it serves is private to
 * its user (server/utilities/caching: `"private"`: "The response MAY be cached and reused only
 * within the same authorization context"), so it allows a private cache for one second.
 */
export const HONEST_CACHE_HINT: CacheHint = { scope: 'private', ttl: '1000' };

/** The hint's `ttlMs` and `cacheScope` members, as raw `"name":value` text. */
export function cacheHintMembers({ scope, ttl }: CacheHint): string {
  return `"ttlMs":${ttl},"cacheScope":${JSON.stringify(scope)}`;
}

/**
 * The results that are CacheableResult in schema/2026-07-28: the listings, resources/read and
 * server/discover.
 */
export const CACHEABLE = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'server/discover']);

/**
 * `result` (a JSON object's raw text, whole or in pieces) in the 2026-07-28 form of a result of
 * `method`, carrying `hint` when `hinted`: by default when the method's results are cacheable; a
 * hostile server (knob `cache_hint_round_trip`) puts hints on a retry's result too, which
 * caching.mdx says MUST NOT be cached.
 */
export function statelessForm(result: string, method: string, hint?: CacheHint, hinted?: boolean): string;
export function statelessForm(result: RawText, method: string, hint?: CacheHint, hinted?: boolean): RawText;
export function statelessForm(result: RawText, method: string, hint: CacheHint = HONEST_CACHE_HINT, hinted = CACHEABLE.has(method)): RawText {
  const members = hinted ? `${COMPLETE},${cacheHintMembers(hint)}` : COMPLETE;
  return withLeadingMembers(result, members);
}

/**
 * `object` with `members` (raw `"name":value` text) written first. The object's own text is kept
 * byte for byte after its opening brace; an object in pieces stays in pieces.
 */
export function withLeadingMembers(object: string, members: string): string;
export function withLeadingMembers(object: RawText, members: string): RawText;
export function withLeadingMembers(object: RawText, members: string): RawText {
  if (typeof object === 'string') return joinAfterBrace(object, members);
  return function* () {
    // Pieces are held only until the first one past the brace shows whether the object is empty.
    let head = '';
    let joined = false;
    for (const piece of object()) {
      if (joined) {
        yield piece;
        continue;
      }
      head += piece;
      if (/^\s*\{\s*$/.test(head)) continue;
      joined = true;
      yield joinAfterBrace(head, members);
    }
    if (!joined) yield joinAfterBrace(head, members);
  };
}

/** The text of an object (at least its start) with `members` first: `{` + members + `,` + the rest. */
function joinAfterBrace(text: string, members: string): string {
  const brace = text.indexOf('{');
  if (brace < 0 || text.slice(0, brace).trim() !== '') throw new Error('a result is a JSON object');
  const rest = text.slice(brace + 1);
  return `{${members}${/^\s*\}/.test(rest) ? '' : ','}${rest}`;
}
