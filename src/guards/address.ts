// The address guard: a server URL is judged before anything is dialled (docs/network.md). The
// broker runs inside the operator's network, so a URL that names that network's own hosts would
// make the broker a way into it (NET-1 to NET-6).

import { hostOf, refusedAddress, refusedName, SERVER_SCHEMES } from '../net/address.js';
import { resolvingOnce, systemResolver, type Resolver } from '../net/resolve.js';
import type { AddressGuard } from './types.js';

/**
 * The operator's opt-in for private origins (a development server on loopback, say), separated
 * by spaces: one per server that needs it. It is read from the broker's environment only: a
 * configuration file can be written by whoever controls the URL it names, the environment only
 * by whoever starts the broker (NET-6).
 */
export const PRIVATE_ORIGIN_OPT_IN = 'GAUNTLET_BROKER_ALLOW_PRIVATE_ORIGIN';

/** The origins the opt-in names, compared as WHATWG serialises them; an unparseable one names nothing. */
function optedInOrigins(env: NodeJS.ProcessEnv): string[] {
  const words = (env[PRIVATE_ORIGIN_OPT_IN] ?? '').split(' ').filter((word) => word !== '');
  return words.filter((word) => URL.canParse(word)).map((word) => new URL(word).origin);
}

/** Whether the operator opted in to exactly this URL's origin. */
function optedIn(url: URL, env: NodeJS.ProcessEnv): boolean {
  return optedInOrigins(env).includes(url.origin);
}

/** Every address a name resolves to, or the reason there are none. */
async function resolveAll(name: string, resolve: Resolver): Promise<string[] | string> {
  try {
    const found = await resolve(name);
    return found.length === 0 ? `"${name}" resolves to no address` : found.map((entry) => entry.address);
  } catch (err) {
    return `"${name}" does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}

export const addressGuard: AddressGuard = {
  name: 'address-guard',
  async refuse(url, env, resolve = systemResolver) {
    if (!SERVER_SCHEMES.includes(url.protocol)) return `the scheme ${url.protocol} is not http: or https:`;
    // The opt-in lifts the range and name checks for exactly one origin, and for nothing else.
    if (optedIn(url, env)) return null;
    const host = hostOf(url);
    if (host.kind === 'address') return refusedAddress(host.address);
    const byName = refusedName(host.name);
    if (byName !== null) return byName;
    // A public name is only as public as every address it resolves to (NET-4). With `resolver`
    // below the broker dials from this same answer, and refuseDial judges each address again as
    // it is dialled: a resolver that would answer differently the second time (DNS rebinding) is
    // never asked.
    const addresses = await resolveAll(host.name, resolve);
    if (typeof addresses === 'string') return addresses;
    const refused = addresses.map(refusedAddress).find((reason) => reason !== null);
    return refused === undefined ? null : `"${host.name}" resolves to ${refused}`;
  },
  // The same range judgement and the same opt-in, for the URL being dialled: a redirect's target
  // (followed only without no-redirects) is judged by its own origin, never by the server's.
  refuseDial: (url, address, env) => (optedIn(url, env) ? null : refusedAddress(address)),
  // Each name answered once for the run: the answer judged is the answer dialled.
  resolver: resolvingOnce,
};
