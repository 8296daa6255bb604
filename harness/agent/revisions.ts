/**
 * The MCP revisions the harness's agent speaks, by the specification's own names. A scenario case
 * has one, spoken end to end: by the agent to the broker and by every kit server of the case
 * (docs/scenario-format.md, `revisions`).
 */
export const REVISIONS = ['2025-11-25', '2026-07-28'] as const;

export type Revision = (typeof REVISIONS)[number];

/** The revision every case spoke before 2026-07-28: its cases keep their files' ids. */
export const BASE_REVISION: Revision = '2025-11-25';

/**
 * The revision with no initialize handshake and no sessions: every request says its revision and
 * the client's capabilities in `_meta`, and the server's own requests come back inside an
 * `input_required` result (multi round-trip requests).
 */
export const STATELESS_REVISION: Revision = '2026-07-28';

export const isRevision = (value: unknown): value is Revision => (REVISIONS as readonly unknown[]).includes(value);

/** The `_meta` keys of a 2026-07-28 request (schema.ts, RequestMetaObject). */
export const REQUEST_META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;
