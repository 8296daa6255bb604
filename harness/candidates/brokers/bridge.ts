import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { spawnHttpChannel } from '../../agent/http-channel.js';
import { ADAPTER_PROTOCOL, type AdapterProtection, type Candidate, type SessionSpec, type UpstreamCommand } from '../types.js';
import { freeLoopbackPort } from '../free-port.js';
import { SDK_REVISIONS } from './installed.js';
import type { Revision } from '../../agent/revisions.js';

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
  /**
   * The credential the broker's front door can require of every client, when it has one: the
   * environment variable it reads it from and the header a client presents it in, as it is.
   * Without it, `front_door_credential` belongs in `unapplied`.
   */
  frontDoorKey?: { variable: string; header: string };
  /** What the adapter's launch does for the broker that the broker would not do by itself. */
  adapterProvides?: readonly AdapterProtection[];
  /** The MCP revisions the bridge carries, as measured; default SDK_REVISIONS. */
  revisions?: readonly Revision[];
}

/** A front-door key drawn for one start: 256 bits, as the reference's. */
const FRONT_DOOR_KEY_BYTES = 32;

/**
 * A plain bridge from a stdio server to Streamable HTTP, as a third party ships it: it claims
 * listing and calls and nothing else, starts its server from a command only, and has no hook (no
 * pins, load report, approvals or audit). The agent reaches it over HTTP at its own endpoint, as
 * it is deployed, so the front-door scenarios (`http-agent`) judge that endpoint too. Its server gets the environment the broker itself runs in with the operator's
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
      agentTransports: ['http'],
      revisions: bridge.revisions ?? SDK_REVISIONS,
      unapplied: bridge.unapplied,
      ...(bridge.adapterProvides === undefined ? {} : { adapterProvides: bridge.adapterProvides }),
    },
    async pin() {
      return { ok: true, detail: `${bridge.name} pins nothing` };
    },
    async start(spec) {
      if (!('command' in spec.upstream)) throw new Error(`${bridge.name} starts its server from a command only`);
      const port = await freeLoopbackPort();
      const { command, args, path } = bridge.launch(spec.upstream, port, spec);
      // The operator's front-door credential, drawn for this start: given to the broker in its
      // environment (never on its command line, which every user of the machine can read), and to
      // the harness as the credential its clients present.
      const keyed = spec.operator.front_door_credential ? bridge.frontDoorKey : undefined;
      const frontDoor = keyed === undefined ? undefined : { variable: keyed.variable, credential: { header: keyed.header, value: randomBytes(FRONT_DOOR_KEY_BYTES).toString('base64url') } };
      const channel = spawnHttpChannel(command, args, {
        url: `http://127.0.0.1:${port}${path}`,
        cwd: spec.workdir,
        headers: spec.agentHttp?.headers ?? {},
        env: { ...spec.env, ...spec.operator.env, ...(frontDoor === undefined ? {} : { [frontDoor.variable]: frontDoor.credential.value }) },
        ...(frontDoor === undefined ? {} : { credential: frontDoor.credential }),
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
