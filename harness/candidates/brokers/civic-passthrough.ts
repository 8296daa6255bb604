import { join } from 'node:path';
import { spawnHttpChannel } from '../../agent/http-channel.js';
import { ADAPTER_PROTOCOL, type Candidate } from '../types.js';
import { BRIDGE_PROVIDES, startBridge, withBridge, type BridgedServer } from './bridged.js';
import { containedEnv } from './contained-env.js';
import { freeLoopbackPort } from '../free-port.js';
import { installedBroker, SDK_REVISIONS } from './installed.js';

/**
 * The operator's URL as the broker's two settings: it dials `TARGET_SERVER_URL` followed by
 * `TARGET_SERVER_MCP_PATH`. The split is made on the text as written, so the address reaches the
 * broker spelled as the operator spelled it (not as the harness's URL parser would normalise it).
 */
function targetSettings(url: string): { TARGET_SERVER_URL: string; TARGET_SERVER_MCP_PATH: string } {
  const [, base = url, path = ''] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url) ?? [];
  return { TARGET_SERVER_URL: base, TARGET_SERVER_MCP_PATH: path === '' ? '/' : path };
}

/**
 * Civic's passthrough MCP server (npm `@civic/passthrough-mcp-server`), run by its own CLI: it
 * serves Streamable HTTP at `/mcp` and relays each session to one server it dials by URL. Its
 * protections are tRPC "hook" servers named in `HOOKS`, none of which ships with it; without one
 * it is a plain relay, and claims listing and calls only. A command server is reached through
 * the adapter's bridge (bridged.ts).
 */
export function civicPassthroughCandidate(): Candidate {
  const broker = installedBroker('@civic/passthrough-mcp-server', 'passthrough-mcp-server');
  return {
    info: {
      name: 'civic-passthrough',
      version: broker.version,
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command', 'url'],
      agentTransports: ['http'],
      revisions: SDK_REVISIONS,
      unapplied: [
        'every tool rule (its idempotent and open-world hints too), the prefix, policy, grants, agents and limits: its CLI has no configuration but where to listen, where to dial and which hook servers to call, and no hook server ships with it',
        'credentials, config_token and config_token_env: its CLI has no setting for a token to the server (it forwards the headers the agent sent)',
        'allow_private_origin: it has no guard on addresses, so there is nothing to opt in to',
        'front_door_credential: it has no credential of its own to require: its front door serves any client that can reach its port',
        "a command server: it dials URLs only, so the adapter's bridge serves it over Streamable HTTP on 127.0.0.1 (declared in adapter_provides)",
        'non_text: it forwards images, audio, blobs and embedded resources as the server sent them, and has no setting to withhold them',
      ],
      adapterProvides: BRIDGE_PROVIDES,
    },
    async pin() {
      return { ok: true, detail: 'civic-passthrough pins nothing' };
    },
    async start(spec) {
      let bridge: BridgedServer | undefined;
      const url = 'url' in spec.upstream ? spec.upstream.url : (bridge = await startBridge(spec.upstream, spec)).url;
      try {
        const port = await freeLoopbackPort();
        const env = {
          ...(await containedEnv(spec.workdir, spec.env)),
          PORT: String(port),
          SOURCE_SERVER_MCP_PATH: '/mcp',
          ...targetSettings(url),
          ...(spec.trustedCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: spec.trustedCa }),
        };
        const channel = spawnHttpChannel(process.execPath, [broker.bin], {
          url: `http://127.0.0.1:${port}/mcp`,
          cwd: spec.workdir,
          headers: spec.agentHttp?.headers ?? {},
          env,
          stderrFile: join(spec.workdir, 'civic-passthrough.stderr'),
          readyTimeoutMs: spec.timeoutMs,
          ...(spec.launchPrefix === undefined ? {} : { launchPrefix: spec.launchPrefix }),
        });
        return bridge === undefined ? channel : withBridge(channel, bridge);
      } catch (error) {
        await bridge?.close();
        throw error;
      }
    },
  };
}
