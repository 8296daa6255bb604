// Connecting to the server and reading its listing, shared by pin and serve. A server the broker
// starts is spoken to over its stdio; a server named by URL is judged by the address guards
// before anything is dialled (and each address again as it is dialled, from the same answer),
// then spoken to over HTTP as the HTTP guards plan it. If anything fails the connection is closed
// (a started server's group stopped) before the error goes on.

import { ConfigError, UpstreamError } from '../errors.js';
import type { Guards } from '../guards/registry.js';

import { NO_CAPABILITIES, capabilitiesValue } from '../operator/client-capabilities.js';
import { CLIENT_INFO, discover } from './discover.js';
import { PerRequestUpstream } from '../upstream/per-request.js';
import { sharedDeadline } from '../upstream/deadline.js';
import { initializeAndList, type Listing } from './listing.js';
import { Connection, type Requester } from '../upstream/connection.js';
import { systemResolver, type Resolver } from '../net/resolve.js';
import { HttpConnection, unguardedHttp, type Dialling } from '../upstream/http.js';
import { readTokens, tokenFor } from '../upstream/tokens.js';
import { ServerProcess } from '../upstream/process.js';
import { loadValidators } from '../schema/compile.js';
import type { ClientFacts, Config, ProcessServerSpec, UrlServerSpec, ListedTool } from '../types.js';

/** A connection to the server, whichever way it is reached. */
export interface Upstream extends Requester {
  /** `why` completes "server X was closed by the broker ..." for every later request. */
  close(why?: string): Promise<void>;
}

export interface Started {
  readonly upstream: Upstream;
  readonly listed: readonly ListedTool[];
  /** Whether the server declared `logging`: the agent's `logging/setLevel` goes to it. */
  readonly logging: boolean;
  /** The server's `instructions` as it gave them at initialize; undefined when none. */
  readonly instructions: string | undefined;
  /** The caching hints the server gave its tool listing (src/load/listing.ts). */
  readonly cacheHints: Listing['cacheHints'];
}

type StartGuards = Pick<Guards, 'process' | 'frame' | 'queue' | 'listing' | 'address' | 'http'>;

/** `declared` are the client capabilities the broker declares to the server in its initialize. */
export async function startAndList(config: Config, guards: StartGuards, declared: ClientFacts = NO_CAPABILITIES): Promise<Started> {
  const opened = config.server.url === undefined ? await startProcess(config, config.server, guards) : await reach(config, config.server, guards);
  const { diagnostics } = opened;
  let upstream = opened.upstream;
  try {
    const remaining = sharedDeadline(config.limits.connectTimeoutMs);
    // The spec's probe comes first, with half the start-up deadline: an older server that leaves
    // it unanswered still has the other half for initialize and its listing.
    const discovered = await discover(upstream, config.server.id, declared, Math.max(1, Math.floor(remaining() / 2)));
    if (discovered !== undefined) upstream = new PerRequestUpstream(upstream, capabilitiesValue(declared), CLIENT_INFO);
    const { tools, instructions, logging, cacheHints } = await initializeAndList(upstream, config.server.id, config.limits, guards.listing, declared, { remaining, discovered });
    return { upstream, listed: tools, instructions, logging, cacheHints };
  } catch (err) {
    await upstream.close();
    const tail = diagnostics();
    if (err instanceof UpstreamError && tail !== '') throw new UpstreamError(`${err.message}; its stderr ends with: ${tail}`);
    throw err;
  }
}

interface Opened {
  readonly upstream: Upstream;
  /** What the server said about itself on the side, read after a failure: usually why. */
  readonly diagnostics: () => string;
}

async function startProcess(config: Config, spec: ProcessServerSpec, guards: StartGuards): Promise<Opened> {
  const server = await ServerProcess.start(spec, guards.process);
  // Load needs the validator; loading it now overlaps with the server's own start.
  loadValidators();
  // Without a frame guard a line is unbounded: the protection does not exist.
  const bounds = guards.frame.map((guard) => guard.lineBound(config.limits));
  const queued = Math.min(...guards.queue.map((guard) => guard.queuedBytes(config.limits)));
  return { upstream: new Connection(spec.id, server, bounds.length === 0 ? undefined : Math.min(...bounds), queued), diagnostics: () => server.stderrTail() };
}

async function reach(config: Config, spec: UrlServerSpec, guards: StartGuards): Promise<Opened> {
  // As the address guards have names resolved: with address-guard, once per name for the run.
  const resolve = guards.address.reduce((resolving, guard) => guard.resolver(resolving), systemResolver);
  for (const guard of guards.address) {
    const reason = await guard.refuse(spec.url, process.env, resolve);
    // The configuration names a server the broker must not reach: refused as the configuration is.
    if (reason !== null) throw new ConfigError(`guard ${guard.name} refused server "${spec.id}" at ${spec.url.href}: ${reason}`);
  }
  // The token comes from the broker's environment, never from the configuration (CRD-1).
  const bearer = tokenFor(readTokens(process.env), spec.url);
  const plan = guards.http.reduce((planned, guard) => guard.plan(planned, config.limits, spec.url), unguardedHttp(bearer));
  return { upstream: new HttpConnection(spec.id, spec.url, plan, dialling(guards, process.env, resolve)), diagnostics: () => '' };
}

/**
 * Every address a request connects to is judged again as it is dialled, by the same guards. The
 * name's answer is the one judged above, never a second one (DNS rebinding); judging it again
 * still matters for a redirect's target (followed only without no-redirects) and as a second
 * wall. Without an address guard, anything is dialled.
 */
function dialling(guards: StartGuards, env: NodeJS.ProcessEnv, resolve: Resolver): Dialling {
  return {
    resolve,
    refuse(url, address) {
      for (const guard of guards.address) {
        const reason = guard.refuseDial(url, address, env);
        if (reason !== null) return `guard ${guard.name} refused it: ${reason}`;
      }
      return null;
    },
  };
}
