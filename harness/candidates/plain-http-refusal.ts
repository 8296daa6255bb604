// The https-only fixture's one rule (https-only.ts): plain HTTP only to loopback.

import { isIPv4 } from 'node:net';

/** The first words of the line the proxy writes to its stderr when it refuses a URL. */
export const HTTPS_ONLY_REFUSAL = 'passthrough-proxy refused: ';

/**
 * Why an https-only client refuses `url`, or undefined when it dials it: a plain-http URL whose
 * host, as WHATWG parsing normalised it, is not `localhost`, an address in 127.0.0.0/8 or `[::1]`,
 * the rule mcp-remote applies without `--allow-http`. It judges the scheme and the spelling of the
 * host, never the address dialled: a private address over https is dialled, and so is any other
 * spelling of loopback that is not one of these (`[::ffff:127.0.0.1]`, `0.0.0.0`) is refused. The
 * reason names the URL as the operator wrote it.
 */
export function plainHttpRefusal(url: string): string | undefined {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:') return undefined;
  const loopback = hostname === 'localhost' || hostname === '[::1]' || (isIPv4(hostname) && hostname.startsWith('127.'));
  return loopback ? undefined : `plain http to a host that is not loopback: ${url}`;
}
