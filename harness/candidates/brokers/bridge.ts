import { join } from 'node:path';
import { spawnHttpChannel } from '../../agent/http-channel.js';
import { ADAPTER_PROTOCOL, type Candidate, type SessionSpec, type UpstreamCommand } from '../types.js';
import { freeLoopbackPort } from '../free-port.js';

/** How a third-party bridge is started for one session, on a port chosen for it. */
export interface BridgeLaunch {
  /** The broker's command line (its server's command and arguments inside), by its own CLI. */
  command: string;
  args: string[];
  /** The path of its Streamable HTTP endpoint. */
  path: string;
}

export interface BridgeDescription {
  name: string;
  version: string;
  /** What of the neutral operator configuration the broker has no way to express. */
  unapplied: readonly string[];
  launch(upstream: UpstreamCommand, port: number, spec: SessionSpec): BridgeLaunch;
}

/**
 * A plain bridge from a stdio server to Streamable HTTP, as a third party ships it: it claims
 * listing and calls and nothing else, starts its server from a command only, and has no hook (no
 * pins, load report, approvals or audit). The agent reaches it over HTTP at its own endpoint, as
 * it is deployed. Its server gets the environment the broker itself runs in with the operator's
 * variables on top, which is the only way such a bridge passes a server its environment.
 */
export function bridgeCandidate(bridge: BridgeDescription): Candidate {
  return {
    info: {
      name: bridge.name,
      version: bridge.version,
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command'],
      unapplied: bridge.unapplied,
    },
    async pin() {
      return { ok: true, detail: `${bridge.name} pins nothing` };
    },
    async start(spec) {
      if (!('command' in spec.upstream)) throw new Error(`${bridge.name} starts its server from a command only`);
      const port = await freeLoopbackPort();
      const { command, args, path } = bridge.launch(spec.upstream, port, spec);
      const channel = spawnHttpChannel(command, args, {
        url: `http://127.0.0.1:${port}${path}`,
        cwd: spec.workdir,
        env: { ...spec.env, ...spec.operator.env },
        stderrFile: join(spec.workdir, `${bridge.name}.stderr`),
        readyTimeoutMs: spec.timeoutMs,
        ...(spec.launchPrefix === undefined ? {} : { launchPrefix: spec.launchPrefix }),
      });
      // Started once it listens (or has failed to): the agent's bound on initialize is the handshake's.
      await channel.ready;
      return channel;
    },
  };
}
