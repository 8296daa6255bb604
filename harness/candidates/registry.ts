import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { directCandidate } from './direct.js';
import { passthroughCandidate, plainProxyCandidate } from './passthrough.js';
import { referenceCandidate } from './reference.js';
import { boundedCandidate } from './bounded.js';
import { mcpRemoteCandidate } from './brokers/mcp-remote.js';
import { civicPassthroughCandidate } from './brokers/civic-passthrough.js';
import { mcpHubCandidate } from './brokers/mcp-hub.js';
import { mcpProxyCandidate } from './brokers/mcp-proxy.js';
import { supergatewayCandidate } from './brokers/supergateway.js';
import { hooksOf, HOOK_OF_CLAIM } from './hooks.js';
import { ADAPTER_PROTOCOL, FEATURES, type Candidate, type CandidateFactory, type Feature } from './types.js';

const BUILT_IN: Record<string, CandidateFactory> = {
  reference: () => referenceCandidate(),
  passthrough: passthroughCandidate,
  'plain-proxy': plainProxyCandidate,
  direct: directCandidate,
  'mcp-remote': mcpRemoteCandidate,
  'civic-passthrough': civicPassthroughCandidate,
  'mcp-hub': mcpHubCandidate,
  'mcp-proxy': mcpProxyCandidate,
  supergateway: supergatewayCandidate,
};

export const builtInCandidates = Object.keys(BUILT_IN);

export class AdapterError extends Error {}

/** Refuses an adapter whose declaration the harness cannot trust to mean what it says. */
function checkDeclaration(candidate: Candidate, source: string): Candidate {
  const info = candidate?.info;
  if (!info || typeof info.name !== 'string' || typeof info.version !== 'string') {
    throw new AdapterError(`${source}: the adapter does not declare a name and version`);
  }
  if (info.adapterProtocol !== ADAPTER_PROTOCOL) {
    throw new AdapterError(`${source}: the adapter speaks ${String(info.adapterProtocol)}, the harness speaks ${ADAPTER_PROTOCOL}`);
  }
  if (!Array.isArray(info.claims)) throw new AdapterError(`${source}: the adapter does not declare its claims (info.claims)`);
  const unknown = info.claims.filter((claim) => !(claim in FEATURES));
  if (unknown.length > 0) throw new AdapterError(`${source}: unknown claims ${unknown.join(', ')}`);
  if (typeof candidate.pin !== 'function' || typeof candidate.start !== 'function') {
    throw new AdapterError(`${source}: the adapter must implement pin and start`);
  }
  // A claim whose hook is missing would have its checks skipped: the declaration cannot be trusted.
  const hooks = hooksOf(candidate);
  const claims = info.claims as readonly Feature[];
  const unbacked = claims.filter((claim) => HOOK_OF_CLAIM[claim] !== undefined && !hooks.has(HOOK_OF_CLAIM[claim]!));
  if (unbacked.length > 0) {
    throw new AdapterError(`${source}: claims ${unbacked.map((claim) => `${claim} without the ${HOOK_OF_CLAIM[claim]} hook`).join(', ')}`);
  }
  return boundedCandidate(candidate);
}

/** A built-in name, or the path of a module whose default export is a CandidateFactory. */
export async function loadCandidate(nameOrModule: string): Promise<Candidate> {
  const builtIn = BUILT_IN[nameOrModule];
  if (builtIn) return checkDeclaration(await builtIn(), nameOrModule);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(nameOrModule)).href)) as { default?: unknown };
  } catch (error) {
    throw new AdapterError(
      `${nameOrModule}: not a built-in candidate (${builtInCandidates.join(', ')}) and not a loadable module: ${(error as Error).message}`,
    );
  }
  if (typeof module.default !== 'function') throw new AdapterError(`${nameOrModule}: the default export is not a candidate factory`);
  return checkDeclaration(await (module.default as CandidateFactory)(), nameOrModule);
}
