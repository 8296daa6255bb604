// The credentials the broker presents to HTTP servers (CRD-1, CRD-2). They come from the broker's
// own environment only, as a map from hostname to token: a configuration file can be written by
// whoever controls the URL it names, the environment only by whoever starts the broker. The map
// is looked up by the URL's exact hostname, so a subdomain or a look-alike name has no token;
// whether the token may be sent at all over the URL's scheme is the `bearer-https-only` guard's to
// decide. The broker puts the token nowhere but in the Authorization header of the requests to its
// host; a server that quotes it back has it redacted by `redact-server-env` (tokenEnv below).

import { ConfigError } from '../errors.js';

export const TOKENS_VARIABLE = 'GAUNTLET_BROKER_TOKENS';

/**
 * The map `GAUNTLET_BROKER_TOKENS` holds: a JSON object from hostname to token. Hostnames are
 * compared as WHATWG URL parsing serialises them (lower case, IPv6 in brackets). Anything else
 * (not an object, a value that is not a non-empty string, a token a header cannot carry, a key
 * that is not a bare hostname) refuses the whole map, naming the variable and never a token.
 */
export function readTokens(env: NodeJS.ProcessEnv): ReadonlyMap<string, string> {
  const text = env[TOKENS_VARIABLE];
  const tokens = new Map<string, string>();
  if (text === undefined || text === '') return tokens;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(`${TOKENS_VARIABLE} is not JSON; it must be an object mapping each hostname to its token`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${TOKENS_VARIABLE} must be a JSON object mapping each hostname to its token`);
  }
  for (const [host, token] of Object.entries(parsed)) {
    const name = hostnameOf(host);
    if (name === undefined) throw new ConfigError(`${TOKENS_VARIABLE}: ${JSON.stringify(host)} is not a bare hostname`);
    if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
      throw new ConfigError(`${TOKENS_VARIABLE}: the token for ${JSON.stringify(name)} must be a non-empty string of visible ASCII characters`);
    }
    if (tokens.has(name)) throw new ConfigError(`${TOKENS_VARIABLE}: ${JSON.stringify(name)} is mapped twice`);
    tokens.set(name, token);
  }
  return tokens;
}

/** The hostname as a URL carries it, or undefined when `host` is not a bare name or address. */
function hostnameOf(host: string): string | undefined {
  if (!/^[A-Za-z0-9.-]+$/.test(host) && !/^\[[0-9A-Fa-f:.]+\]$/.test(host)) return undefined;
  return URL.canParse(`https://${host}/`) ? new URL(`https://${host}/`).hostname : undefined;
}

/** The token mapped to exactly this URL's hostname, if any. */
export function tokenFor(tokens: ReadonlyMap<string, string>, url: URL): string | undefined {
  return tokens.get(url.hostname);
}

/**
 * The token this URL's host is mapped to, named for `redact-server-env` as if it were a variable
 * lent to the server: a server that quotes it back has it replaced by
 * `[redacted: GAUNTLET_BROKER_TOKENS[host]]`. Read from the broker's own environment.
 */
export function tokenEnv(url: URL, env: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, string> {
  const token = tokenFor(readTokens(env), url);
  return token === undefined ? new Map() : new Map([[`${TOKENS_VARIABLE}[${url.hostname}]`, token]]);
}
