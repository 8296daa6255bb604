// Who the broker says it is, and the MCP revisions it speaks. The version is kept here rather
// than read from package.json because the compiled broker must not depend on the source layout.

export const BROKER_NAME = 'gauntlet-reference-broker';
export const BROKER_VERSION = '0.1.0';

/** The revisions the broker speaks, newest first; the first is what it asks for and offers. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;
export const LATEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS[0];

export function isSupportedProtocolVersion(version: string): boolean {
  return (PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
