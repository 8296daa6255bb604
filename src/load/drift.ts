// Rediscovery: when the server says during a session that its tools changed, the broker lists
// them again with Load's bounds and decides every tool again exactly as Load did, against the
// same manifest and rules. A tool registered at Load that would not register now no longer
// matches the contract the operator reviewed. What the agent is offered is not touched: the
// listing was fixed at Load (DRF-1), and the drift guards decide what follows (DRF-2, DRF-3).

import { ListingRefused, ServerGone } from '../errors.js';
import type { Guards } from '../guards/registry.js';
import { relist } from './listing.js';
import { decideTools } from './load.js';
import type { Requester } from '../upstream/connection.js';
import type { Config, RegisteredTool, Manifest, Drift } from '../types.js';

/** What a listing that failed is charged to: no single tool guard refused it. */
export const REDISCOVERY = 'rediscovery';

export async function rediscover(
  upstream: Requester,
  config: Config,
  manifest: Manifest,
  guards: Guards,
  registered: readonly RegisteredTool[],
): Promise<Drift[]> {
  let outcome: ReturnType<typeof decideTools>;
  try {
    outcome = decideTools(await relist(upstream, config.server.id, config.limits, guards.listing), manifest, config, guards);
  } catch (err) {
    // The broker closed the connection itself (the agent left, or a drift guard ended the
    // session): the listing failed for that alone, which says nothing of the tools, and no call
    // can be forwarded over the connection any more.
    if (err instanceof ServerGone && err.closedByBroker) return [];
    // A listing that fails or is refused confirms nothing, so no tool can be shown to still match.
    const guard = err instanceof ListingRefused ? err.guard : REDISCOVERY;
    return registered.map((tool) => ({ tool, guard, reason: `the tools could not be listed again: ${(err as Error).message}` }));
  }
  const again = new Set(outcome.registered.map((tool) => tool.tool));
  const refusals = new Map(outcome.refused.map((refusal) => [refusal.tool, refusal]));
  return registered
    .filter((tool) => !again.has(tool.tool))
    .map((tool) => {
      const refusal = refusals.get(tool.tool);
      return refusal === undefined
        ? { tool, guard: REDISCOVERY, reason: 'it no longer registers' }
        : { tool, guard: refusal.guard, reason: refusal.reason };
    });
}
