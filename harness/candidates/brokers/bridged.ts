import { join } from 'node:path';
import { stdioBridgeEntry } from '../../paths.js';
import { killGroup, spawnChannel, throughPrefix } from '../child.js';
import { freeLoopbackPort } from '../free-port.js';
import type { AdapterProtection, AgentChannel, SessionSpec, UpstreamCommand } from '../types.js';
import { closingAlso } from '../wrapped-channel.js';

/**
 * A command server put behind the adapters' bridge (stdio-bridge.ts) for a broker that dials URLs
 * only: where the broker dials it, and how the adapter ends it.
 */
export interface BridgedServer {
  url: string;
  /** Ends the bridge and the server under it (their whole process group). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * What the bridge does that a scenario could otherwise credit to the broker, for an adapter's
 * `adapterProvides`: the server's processes and its environment are the adapter's doing.
 */
export const BRIDGE_PROVIDES: readonly AdapterProtection[] = [
  {
    protection: 'process-isolation',
    how: "a command server runs under the adapter's stdio-to-HTTP bridge, in the bridge's process group, which the adapter kills when the broker exits or the session closes",
  },
  {
    protection: 'server-env',
    how: "a command server gets the environment the adapter's bridge gives it: PATH, HOME and TMPDIR, and the operator's variables as written, nothing else of the broker's",
  },
];

/** The server's environment: what a process needs to start, and what the operator set for it, written as it is. */
function serverEnv(spec: SessionSpec): NodeJS.ProcessEnv {
  const base = Object.fromEntries(['PATH', 'HOME', 'TMPDIR'].filter((name) => spec.env[name] !== undefined).map((name) => [name, spec.env[name]]));
  return { ...base, ...spec.operator.env };
}

/**
 * Starts the bridge in front of the command server, through the session's launch prefix, and
 * waits (within the session's timeout) until it accepts connections. The broker dials it on
 * 127.0.0.1, which every URL-only broker the suite adapts allows over plain http.
 */
export async function startBridge(upstream: UpstreamCommand, spec: SessionSpec, label = 'bridge'): Promise<BridgedServer> {
  const port = await freeLoopbackPort();
  const channel = spawnChannel(...throughPrefix(spec.launchPrefix, process.execPath, [stdioBridgeEntry, String(port), '--', upstream.command, ...upstream.args]), {
    cwd: spec.workdir,
    env: serverEnv(spec),
    stderrFile: join(spec.workdir, `${label}.stderr`),
  });
  const listening = new Promise<boolean>((resolve) => {
    channel.onLine((line) => line === 'listening' && resolve(true));
    void channel.exited.then(() => resolve(false));
    setTimeout(() => resolve(false), spec.timeoutMs).unref();
  });
  if (!(await listening)) {
    await channel.close();
    throw new Error(`the adapter's bridge to ${upstream.command} did not start listening within ${spec.timeoutMs} ms`);
  }
  // Killed outright, group and all: the bridge has nothing to finish, and a grace period would
  // let the server outlive the broker by it.
  const close = () => {
    if (channel.pid !== undefined) killGroup(channel.pid);
    return channel.close();
  };
  return { url: `http://127.0.0.1:${port}/mcp`, close };
}

/**
 * The broker's channel with the bridge's lifetime tied to it: closing the session ends the
 * bridge after the broker, and so does the broker's exit on its own (a crash, a kill), so the
 * server under the bridge never outlives the broker.
 */
export function withBridge(channel: AgentChannel, bridge: BridgedServer): AgentChannel {
  void channel.exited.then(() => bridge.close());
  return closingAlso(channel, () => bridge.close());
}
