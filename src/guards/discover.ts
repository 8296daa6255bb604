// What a 2026-07-28 agent is told when it asks `server/discover` (server/discover.mdx). That
// revision has no handshake: a client may ask any time, and a server may answer each time
// differently, its instructions, capabilities or name changed since the broker vetted them, with no
// notice and nothing to review. With this guard the broker answers the agent itself, from what it
// vetted when it started the session's servers (its own capabilities, the instructions Load
// decided, src/session/session.ts discoverResult), however often it is asked, and never asks the
// server again, so a later answer of the server's cannot reach the agent. Without it the broker
// asks the server again at each of the agent's requests and passes on whatever the server now says,
// as a relay would.

import type { DiscoverGuard } from './types.js';

export const discoverPinned: DiscoverGuard = { name: 'discover-pinned' };
