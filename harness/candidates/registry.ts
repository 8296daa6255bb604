import { existsSync } from 'node:fs';
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
import { AdapterError } from './adapter-error.js';
import { didYouMean } from '../nearest.js';
import { loadRequirements } from '../requirements.js';
import { openProtocolAdapter, type ProtocolAdapter } from './process-adapter.js';
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

export { AdapterError };

/** Refuses an adapter whose declaration the harness cannot trust to mean what it says. */
export function checkDeclaration(candidate: Candidate, source: string): Candidate {
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
  const provided = info.adapterProvides ?? [];
  if (!Array.isArray(provided)) throw new AdapterError(`${source}: adapter_provides is not a list`);
  const requirementIds = new Set(loadRequirements().map((requirement) => requirement.id));
  // A protection the report cannot match to any scenario would credit nothing to the adapter and so leave it with the broker.
  const unknownProvided = provided.map((entry) => entry?.protection).filter((protection) => typeof protection !== 'string' || !(protection in FEATURES || requirementIds.has(protection)));
  if (unknownProvided.length > 0) throw new AdapterError(`${source}: adapter_provides names ${unknownProvided.map(String).join(', ')}, neither a claim tag nor a requirement id of docs/requirements.md`);
  // A claim whose hook is missing would have its checks skipped: the declaration cannot be trusted.
  const hooks = hooksOf(candidate);
  const claims = info.claims as readonly Feature[];
  const unbacked = claims.filter((claim) => HOOK_OF_CLAIM[claim] !== undefined && !hooks.has(HOOK_OF_CLAIM[claim]!));
  if (unbacked.length > 0) {
    throw new AdapterError(`${source}: claims ${unbacked.map((claim) => `${claim} without the ${HOOK_OF_CLAIM[claim]} hook`).join(', ')}`);
  }
  return candidate;
}

/** A path run as a module adapter (the TypeScript binding) rather than spoken to over the protocol. */
const isModule = (path: string) => /\.m?js$/.test(path);

/** A candidate as opened, before its calls are bounded: with its adapter process, for a protocol adapter. */
export interface OpenedCandidate {
  candidate: Candidate;
  protocol?: ProtocolAdapter['process'];
}

/**
 * A built-in name; the path of a module (`.js`, `.mjs`) whose default export is a
 * CandidateFactory; or any other path, an executable adapter speaking gauntlet-candidate/2 (a
 * `.py` run with python3). Its declaration is checked; its calls are not yet bounded.
 */
export async function openCandidate(nameOrPath: string): Promise<OpenedCandidate> {
  const builtIn = BUILT_IN[nameOrPath];
  if (builtIn) return { candidate: checkDeclaration(await builtIn(), nameOrPath) };
  if (!isModule(nameOrPath)) {
    if (!existsSync(nameOrPath)) {
      throw new AdapterError(`${nameOrPath}: not a built-in candidate (${builtInCandidates.join(', ')}) and no adapter file of that name${didYouMean(nameOrPath, builtInCandidates)}`);
    }
    const adapter = await openProtocolAdapter(nameOrPath);
    try {
      return { candidate: checkDeclaration(adapter.candidate, nameOrPath), protocol: adapter.process };
    } catch (error) {
      await adapter.candidate.dispose?.();
      throw error;
    }
  }
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(nameOrPath)).href)) as { default?: unknown };
  } catch (error) {
    throw new AdapterError(
      `${nameOrPath}: not a built-in candidate (${builtInCandidates.join(', ')}) and not a loadable module: ${(error as Error).message}`,
    );
  }
  if (typeof module.default !== 'function') throw new AdapterError(`${nameOrPath}: the default export is not a candidate factory`);
  return { candidate: checkDeclaration(await (module.default as CandidateFactory)(), nameOrPath) };
}

/** The candidate `openCandidate` gives, with every call into its adapter bounded in time. */
export async function loadCandidate(nameOrPath: string): Promise<Candidate> {
  return boundedCandidate((await openCandidate(nameOrPath)).candidate);
}
