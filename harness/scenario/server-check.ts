import { isIP } from 'node:net';
import { findServer } from '../../servers/catalogue.js';
import { KnobError, refuseUnlistened, resolveKnobs } from '../../servers/kit/knobs.js';
import type { ServerSpec } from './types.js';

/** Where an HTTP server listens when the scenario does not say: the harness's own loopback. */
const LOOPBACK = '127.0.0.1';

/**
 * What a scenario asks of one hostile server, checked at load as the kit checks it at start: its
 * knobs over its catalogue preset (every knob known, every value one the kit takes, for stdio and
 * HTTP alike), and every address it listens on, names in hosts or serves by DNS a real IP address.
 * Checked here, a mistake is the catalogue's load error naming the file, not a server that dies
 * when its scenario runs. Returns what is wrong, or undefined.
 */
export function serverProblem(name: string, server: ServerSpec): string | undefined {
  const entry = findServer(server.catalogue);
  if (entry === undefined) return undefined; // the loader names an unknown server itself
  const addresses = [...[server.listen ?? []].flat(), ...Object.values(server.hosts ?? {}), ...Object.values(server.resolves ?? {}).flat()];
  const bad = addresses.find((address) => isIP(address) === 0);
  if (bad !== undefined) return `${name}: ${JSON.stringify(bad)} is not an IP address`;
  // The revisions knob is the case's revision, set by the revision axis (which refuses a file
  // that sets it), and checked with the rest: what a server may do depends on what it speaks.
  const written = Object.entries(server.knobs ?? {});
  const assigned = { ...entry.knobs, ...Object.fromEntries(written.map(([knob, value]) => [knob, String(value)])) };
  try {
    refuseUnlistened(resolveKnobs(assigned), server.transport === 'http' ? [server.listen ?? LOOPBACK].flat() : null);
  } catch (error) {
    if (error instanceof KnobError) return `${name} (${server.catalogue}): ${error.message}`;
    throw error;
  }
  return undefined;
}
