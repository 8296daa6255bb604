/**
 * Which MCP revision a request speaks (knob `revisions`). 2025-11-25 is spoken after an
 * `initialize` handshake; 2026-07-28 has none, and every request names its revision and the
 * client's capabilities in its own `_meta`, so the kit answers each request in the revision it
 * names, keeping nothing from one request to the next. A server that speaks only 2025-11-25 (the
 * default) reads no `_meta` at all: it answers exactly as it did before 2026-07-28 existed.
 */
import { LOG_LEVELS, type LogLevel } from './initiated.js';
import { isRecord } from './jsonrpc.js';
import { writeJson } from './json-text.js';

export const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

/** The stateless revision: no handshake, the revision named in every request's `_meta`. */
export const STATELESS: Revision = '2026-07-28';
/** The revision spoken after an `initialize` handshake (and the older ones `initialize` accepts). */
export const HANDSHAKE: Revision = '2025-11-25';

/** schema/2026-07-28: "Error code returned when the request's protocol version is not supported by the server." */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/**
 * How a request is to be answered: in one of the server's revisions, or refused with
 * UnsupportedProtocolVersion, naming what it asked for (null when it named nothing).
 */
export type Speaking = { revision: Revision } | { unsupported: string | null };

/**
 * The revision `revisions` (the knob) answers a request of `method` with these params in.
 * `initialize` is the 2025-11-25 handshake whatever its `_meta` says. Any other request naming
 * 2026-07-28 in its `_meta` is stateless; one naming something else is refused, unless it names
 * 2025-11-25 to a server that speaks it; one naming nothing is 2025-11-25 where the server speaks
 * it, and refused where it does not (basic/versioning: a modern server answers a request it cannot
 * place in a revision it supports with UnsupportedProtocolVersionError).
 */
export function speakingOf(revisions: readonly Revision[], method: string, params: unknown): Speaking {
  if (method === 'initialize') {
    if (revisions.includes(HANDSHAKE)) return { revision: HANDSHAKE };
    const requested = isRecord(params) ? params['protocolVersion'] : undefined;
    return { unsupported: typeof requested === 'string' ? requested : null };
  }
  const named = metaOf(params)[VERSION_KEY];
  if (named === undefined) return revisions.includes(HANDSHAKE) ? { revision: HANDSHAKE } : { unsupported: null };
  const known = revisions.find((revision) => revision === named);
  return known === undefined ? { unsupported: typeof named === 'string' ? named : JSON.stringify(named) } : { revision: known };
}

/** The revisions a server speaks, newest first: `supportedVersions`, and the refusal's `supported`. */
export function newestFirst(revisions: readonly Revision[]): Revision[] {
  return REVISIONS.filter((revision) => revisions.includes(revision)).reverse();
}

/**
 * The refusal's `data`, as schema/2026-07-28's UnsupportedProtocolVersionError has it: `supported`
 * ("Protocol versions the server supports") and `requested` ("The protocol version that was
 * requested by the client"), left out when the request named none.
 */
export function unsupportedData(revisions: readonly Revision[], requested: string | null): string {
  return writeJson({ supported: newestFirst(revisions), ...(requested === null ? {} : { requested }) });
}

/** A request's `_meta`, or an empty object. */
export function metaOf(params: unknown): Record<string, unknown> {
  const meta = isRecord(params) ? params['_meta'] : undefined;
  return isRecord(meta) ? meta : {};
}

/**
 * The names of the client capabilities a declaration holds, each declared as an object: an
 * initialize's `capabilities`, or a 2026-07-28 request's `io.modelcontextprotocol/clientCapabilities`
 * ("Capabilities are declared per-request rather than once at initialization ... Servers MUST NOT
 * infer capabilities from prior requests").
 */
export function capabilityNames(capabilities: unknown): ReadonlySet<string> {
  return new Set(isRecord(capabilities) ? Object.keys(capabilities).filter((name) => isRecord(capabilities[name])) : []);
}

/** The capabilities a 2026-07-28 request declares in its own `_meta`. */
export function requestCapabilities(params: unknown): ReadonlySet<string> {
  return capabilityNames(metaOf(params)[CAPABILITIES_KEY]);
}

/**
 * The log level a 2026-07-28 request asks for: null when it asks for none, `invalid` when it names
 * no level (server/utilities/logging: "the server **SHOULD** reject that request" with -32602).
 */
export function requestLogLevel(params: unknown): LogLevel | null | 'invalid' {
  const level = metaOf(params)[LOG_LEVEL_KEY];
  if (level === undefined) return null;
  return LOG_LEVELS.find((known) => known === level) ?? 'invalid';
}

/**
 * Whether a log message of `level` may go out for a request asking for `requested`
 * (server/utilities/logging: "The server **MUST NOT** emit `notifications/message` for a request
 * that does not include this field. When the field is present, the server **MAY** send
 * `notifications/message` notifications at or above the requested level").
 */
export function logAdmitted(level: LogLevel, requested: LogLevel | null): boolean {
  return requested !== null && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(requested);
}
