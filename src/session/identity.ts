// Who the broker says it is, and the MCP revisions it speaks. The version is kept here rather
// than read from package.json because the compiled broker must not depend on the source layout.

import { PER_REQUEST_REVISION } from '../wire/revision.js';

export const BROKER_NAME = 'gauntlet-reference-broker';
export const BROKER_VERSION = '0.1.0';

/**
 * The revisions the broker speaks, newest first; the first is what it asks for and offers. The
 * older ones are those the official SDK still negotiates (its SUPPORTED_PROTOCOL_VERSIONS): agents
 * and servers built on it ask for them and send them in MCP-Protocol-Version, and the broker's
 * guards do not depend on what a revision adds (test/broker/protocol-versions.test.ts).
 */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;
export const LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0];

/**
 * Every revision the broker serves an agent: 2026-07-28, spoken per request with no handshake
 * (src/wire/revision.ts), and the handshake's revisions above. What `server/discover` lists, and
 * an UnsupportedProtocolVersionError names.
 */
export const SERVED_VERSIONS = [PER_REQUEST_REVISION, ...PROTOCOL_VERSIONS] as const;

export function isSupportedProtocolVersion(version: string): boolean {
  return (PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
