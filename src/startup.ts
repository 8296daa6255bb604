// Starting the server and reading its listing, shared by pin and serve. If anything fails the
// server's group is stopped before the error goes on, and the tail of its stderr is added to
// the message: that is usually where a server says why it failed.

import type { Config } from './config.js';
import { UpstreamError } from './errors.js';
import type { Guards } from './guards/registry.js';
import { initializeAndList, type ListedTool } from './listing.js';
import { Connection } from './upstream/connection.js';
import { ServerProcess } from './upstream/process.js';

export interface Started {
  readonly upstream: Connection;
  readonly listed: readonly ListedTool[];
}

export async function startAndList(config: Config, guards: Pick<Guards, 'process' | 'frame' | 'listing'>): Promise<Started> {
  const server = await ServerProcess.start(config.server, guards.process);
  // Without a frame guard a line is unbounded: the protection does not exist.
  const bounds = guards.frame.map((guard) => guard.lineBound(config.limits));
  const upstream = new Connection(config.server.id, server, bounds.length === 0 ? undefined : Math.min(...bounds));
  try {
    return { upstream, listed: await initializeAndList(upstream, config.server.id, config.limits, guards.listing) };
  } catch (err) {
    await upstream.close();
    const tail = server.stderrTail();
    if (err instanceof UpstreamError && tail !== '') throw new UpstreamError(`${err.message}; its stderr ends with: ${tail}`);
    throw err;
  }
}
