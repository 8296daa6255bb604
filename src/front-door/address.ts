// Where the front door listens, as the operator wrote it (`--listen [HOST:]PORT`), and which Host
// headers name it. A request reaching a loopback listener under a name of the attacker's (DNS
// rebinding) carries that name as its Host, so only the names of the address listened on are
// taken. The same names, over http with the port listened on, are the front door's own origin,
// which a client may send as its Origin (the SDK's and the official conformance suite's do).

import { isIP } from 'node:net';
import { ConfigError } from '../errors.js';

export interface ListenAddress {
  /** Undefined when the operator named none: the front-door plan decides. */
  readonly host: string | undefined;
  readonly port: number;
}

/** `PORT`, `HOST:PORT` or `[IPV6]:PORT`, HOST an IP address or `localhost`. */
export function parseListen(text: string): ListenAddress {
  const match = /^(?:(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text);
  const port = match === null ? NaN : Number(match[3]);
  const host = match?.[1] ?? match?.[2];
  if (match === null || port < 1 || port > 65535) throw new ConfigError(`--listen ${text} is not [HOST:]PORT with a port from 1 to 65535`);
  if (host !== undefined && host !== 'localhost' && isIP(host) === 0) throw new ConfigError(`--listen ${text}: ${host} is not an IP address or localhost`);
  if (match[1] !== undefined && isIP(match[1]) !== 6) throw new ConfigError(`--listen ${text}: ${match[1]} is not an IPv6 address`);
  return { host, port };
}

/** The names a Host header may give for a listener on `host`: its own, and loopback's when it is loopback. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function hostName(host: string): string {
  return isIP(host) === 6 ? `[${host.toLowerCase()}]` : host.toLowerCase();
}

/** Whether a Host header names the listener at `host`:`port`. */
export function namesListener(header: string | undefined, host: string | undefined, port: number): boolean {
  if (header === undefined) return false;
  const names = new Set(LOOPBACK_NAMES);
  if (host !== undefined) names.add(hostName(host));
  const at = header.lastIndexOf(':');
  // Every client sends the port of a listener off port 80, as URL serialisation does.
  if (at < 0 || header.endsWith(']')) return false;
  return names.has(header.slice(0, at).toLowerCase()) && header.slice(at + 1) === String(port);
}

/**
 * Whether an Origin header is the listener's own origin: http, a name `namesListener` takes, the
 * port listened on, serialised as a browser sends it (no path, no user). The front door serves no
 * page, so no script runs at this origin but a client on this machine naming the broker itself; a
 * page whose name was rebound to loopback carries its own name.
 */
export function isOwnOrigin(origin: string, host: string | undefined, port: number): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== 'http:' || url.origin !== origin) return false;
  return namesListener(`${url.hostname}:${url.port === '' ? '80' : url.port}`, host, port);
}
