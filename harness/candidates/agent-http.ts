import { spawnHttpChannel } from '../agent/http-channel.js';
import type { SpawnOptions } from './child.js';
import { freeLoopbackPort } from './free-port.js';
import type { AgentChannel, FrontDoorCredential, SessionSpec } from './types.js';

/**
 * Starts a broker that serves the agent over Streamable HTTP (`spec.agentHttp`) on a loopback
 * port the harness reserved, and resolves once it answers. `args` is given that port. The agent,
 * like every client of the harness, dials 127.0.0.1 only, whatever address the broker binds.
 * `credential` is the one its front door requires, when the adapter configured one.
 */
export async function startHttpAgent(spec: SessionSpec, args: (port: number) => string[], options: SpawnOptions, credential?: FrontDoorCredential): Promise<AgentChannel> {
  const port = await freeLoopbackPort();
  const channel = spawnHttpChannel(process.execPath, args(port), {
    ...options,
    url: `http://127.0.0.1:${port}/mcp`,
    headers: spec.agentHttp?.headers ?? {},
    ...(credential === undefined ? {} : { credential }),
    ...(spec.launchPrefix ? { launchPrefix: spec.launchPrefix } : {}),
  });
  await channel.ready;
  return channel;
}
