// The stdio backward-compatibility probe of MCP 2026-07-28 (basic/transports/stdio.mdx, "Backward
// Compatibility"): before anything else the broker asks the server `server/discover`, in
// 2026-07-28. A server that answers with a DiscoverResult listing 2026-07-28 is spoken to in that
// revision, per request; one that answers with any other error or anything but a DiscoverResult,
// or not within its share of the start-up deadline, is an older server, and gets initialize as
// before. A server that says it is
// of 2026-07-28 or later but speaks neither that revision nor one of the handshake's the broker
// speaks cannot be spoken to: Load fails, as for an initialize answered with a version it does
// not speak. Whatever the server says of itself here is read as initialize's answer is: its
// capabilities (whether it logs) and its instructions, which Load then decides on.

import { ServerGone, UpstreamError } from '../errors.js';
import { ERROR } from '../wire/jsonrpc.js';
import { META, PER_REQUEST_REVISION } from '../wire/revision.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { capabilitiesValue } from '../operator/client-capabilities.js';
import { BROKER_NAME, BROKER_VERSION, isSupportedProtocolVersion } from '../session/identity.js';
import type { Requester } from '../upstream/connection.js';
import type { ClientFacts, JsonValue } from '../types.js';

/** What a 2026-07-28 server said of itself in its DiscoverResult. */
export interface Discovered {
  /** Undefined when it gave none, or gave something that is not a string. */
  readonly instructions: string | undefined;
  /** Whether it declared `logging`. */
  readonly logging: boolean;
}

/** The broker's name and version, as it gives them to a server. */
export const CLIENT_INFO = plain({ name: BROKER_NAME, version: BROKER_VERSION });

/**
 * Asks `server/discover` within `timeoutMs`: what the server said when it speaks 2026-07-28,
 * undefined when it is an older server to be initialized.
 */
export async function discover(server: Requester, serverId: string, declared: ClientFacts, timeoutMs: number): Promise<Discovered | undefined> {
  const meta = object([
    [META.protocolVersion, plain(PER_REQUEST_REVISION)],
    [META.clientCapabilities, capabilitiesValue(declared)],
    [META.clientInfo, CLIENT_INFO],
  ]);
  let reply;
  try {
    reply = await server.request('server/discover', object([['_meta', meta]]), timeoutMs, 'server/discover');
  } catch (err) {
    // An older server may leave a method it does not know unanswered, and over HTTP one answers a
    // request before initialize with an HTTP error (streamable-http.mdx, "Backward Compatibility":
    // a body that is no modern JSON-RPC error means a legacy server). A server that went away
    // meanwhile fails the initialize that follows, naming why; one never reached (gone already, an
    // address refused at the dial) says nothing of its revision, and fails Load here.
    if (err instanceof ServerGone && !err.dispatched) throw err;
    if (err instanceof UpstreamError) return undefined;
    throw err;
  }
  const cannot = (what: string): never => {
    throw new UpstreamError(`server "${serverId}" answered server/discover ${what}, and speaks no revision the broker speaks`);
  };
  if (!reply.ok) {
    const code = member(reply.error, 'code');
    if (code?.kind !== 'number' || code.text !== String(ERROR.unsupportedProtocolVersion)) return undefined;
    const data = member(reply.error, 'data');
    const supported = data?.kind === 'object' ? versions(member(data, 'supported')) : [];
    // A modern server that also speaks a handshake revision the broker speaks is initialized.
    return supported.some(isSupportedProtocolVersion) ? undefined : cannot('with UnsupportedProtocolVersion');
  }
  const result = reply.result;
  if (result.kind !== 'object') return undefined;
  const listed = member(result, 'supportedVersions');
  // Not a DiscoverResult: an older server that answers whatever it is asked.
  if (listed?.kind !== 'array') return undefined;
  const supported = versions(listed);
  if (!supported.includes(PER_REQUEST_REVISION)) return supported.some(isSupportedProtocolVersion) ? undefined : cannot(`listing ${JSON.stringify(supported)}`);
  const capabilities = member(result, 'capabilities');
  return {
    instructions: stringValue(member(result, 'instructions')),
    logging: capabilities?.kind === 'object' && member(capabilities, 'logging')?.kind === 'object',
  };
}

/** The strings of an array; anything else lists none. */
function versions(value: JsonValue | undefined): string[] {
  return value?.kind === 'array' ? value.items.flatMap((item) => (item.kind === 'string' ? [item.value] : [])) : [];
}
