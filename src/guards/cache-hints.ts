// The caching hints a 2026-07-28 result carries (server/utilities/caching.mdx: `cacheScope`, who
// may keep it; `ttlMs`, for how long it is fresh). A server's hints describe the server's answer,
// not the broker's: every listing the broker answers is what Load decided under this operator's
// configuration (classes, renames, withheld tools), and resources/read is answered through the
// operator's guards, so a server's `"public"` would tell a cache shared by several users (one
// client of many users, a caching gateway) that one agent's view may be served to any other, and
// its long `ttlMs` would keep a listing fresh after a pin or the server's drift changed it. With
// this guard every cacheable result the agent receives says `"private"` and 0 (immediately
// stale), and every other result (a call's, an `input_required` one, a retry's, which caching.mdx
// says carry none or MUST NOT be cached) carries none; the mechanics live in
// src/session/answer.ts. Without it the hints a result brings from the server reach the agent as
// the server wrote them, as a broker that relays them does: a read's, a call's, and the tool
// listing's, those the server gave its first page at Load (src/load/listing.ts).

import type { CacheHintGuard } from './types.js';

export const cacheHintsPrivate: CacheHintGuard = { name: 'cache-hints-private' };
