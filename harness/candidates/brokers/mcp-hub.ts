import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnLegacySseChannel } from '../../agent/legacy-sse-channel.js';
import { packageRoot } from '../../paths.js';
import { runToExit, throughPrefix } from '../child.js';
import { ADAPTER_PROTOCOL, type Candidate, type SessionSpec } from '../types.js';
import { containedEnv } from './contained-env.js';
import { freeLoopbackPort } from '../free-port.js';
import { installedBroker, SDK_REVISIONS } from './installed.js';

/** Compiled, as every process the harness starts (harness/paths.ts): under vitest this module is the source. */
const hubReadyEntry = join(packageRoot, 'dist', 'harness', 'candidates', 'brokers', 'hub-ready.js');

/** The variable the hub's configuration names for a credential, so the token is not in the file. */
const TOKEN_VARIABLE = 'GAUNTLET_HUB_SERVER_TOKEN';

/**
 * The session's one server, as the hub's configuration names it: the hub offers its tools as
 * `server__<tool>`.
 */
const SERVER = 'server';
const NAMESPACE = `${SERVER}__`;

/**
 * The hub's configuration file: one server, started from the command (its `env` exactly as the
 * operator wrote it, which the hub resolves `${...}` placeholders in), or reached at the URL with
 * its `headers`. A token mapped to the URL's exact hostname is named there as `${VARIABLE}` and
 * given in the hub's environment, the hub's own way of keeping a secret out of its file; a token
 * written into the server's entry is a header in the file, and a variable named as the token is
 * the `${NAME}` placeholder the README shows.
 */
function configuration(spec: SessionSpec): { file: object; env: Record<string, string> } {
  const { upstream, operator } = spec;
  if ('command' in upstream) {
    return { file: { mcpServers: { [SERVER]: { command: upstream.command, args: upstream.args, env: operator.env ?? {} } } }, env: {} };
  }
  const token = operator.credentials?.[new URL(upstream.url).hostname];
  const authorization =
    operator.config_token !== undefined
      ? `Bearer ${operator.config_token}`
      : operator.config_token_env !== undefined
        ? `Bearer \${${operator.config_token_env}}`
        : token !== undefined
          ? `Bearer \${${TOKEN_VARIABLE}}`
          : undefined;
  return {
    file: { mcpServers: { [SERVER]: { url: upstream.url, ...(authorization === undefined ? {} : { headers: { Authorization: authorization } }) } } },
    env: token === undefined ? {} : { [TOKEN_VARIABLE]: token },
  };
}

/**
 * mcp-hub keeps a cache of its marketplace's catalogue and fetches it from GitHub Pages at start
 * when the cache is missing or stale. A fresh cache in the session's data home (`$XDG_DATA_HOME/mcp-hub/cache`) keeps it on loopback.
 */
async function seedMarketplaceCache(dataHome: string): Promise<void> {
  const dir = join(dataHome, 'mcp-hub', 'cache');
  await mkdir(dir, { recursive: true });
  const registry = { version: 'gauntlet', generatedAt: Date.now(), totalServers: 1, servers: [{ id: 'none', name: 'none' }] };
  await writeFile(join(dir, 'registry.json'), JSON.stringify({ registry, lastFetchedAt: Date.now(), serverDocumentation: {} }));
}

/**
 * mcp-hub (npm `mcp-hub`): a hub that starts or dials MCP servers from a configuration file and
 * offers all their tools at one endpoint, `/mcp`, namespaced `<server>__<tool>`. Although its README
 * says it implements MCP 2025-03-26, that endpoint is the HTTP+SSE transport of 2024-11-05 (an
 * event stream at GET /mcp, messages POSTed to /messages), so the agent reaches it by that.
 * It claims no protection of the kind the suite tests; it forwards listings and calls.
 */
export function mcpHubCandidate(): Candidate {
  const broker = installedBroker('mcp-hub', 'mcp-hub');
  return {
    info: {
      name: 'mcp-hub',
      version: broker.version,
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command', 'url'],
      revisions: SDK_REVISIONS,
      unapplied: [
        'tools: mcp-hub has no tool allowlist (only a whole server can be disabled), and no effect classes, idempotent or open-world hints, renames, description overrides or parameter rules',
        'prefix: it names every tool <server>__<tool> and nothing else',
        'policy, grants, agents and limits: it has nothing of the kind',
        'allow_private_origin: it has no guard on addresses, so there is nothing to opt in to',
        'front_door_credential: it has no credential of its own to require: its front door serves any client that can reach its port',
        'credentials: it has no token map; a token mapped to the URL\'s exact hostname is the server\'s Authorization header, sent on every request over any scheme',
        'non_text: it forwards images, audio, blobs and embedded resources as the server sent them, and has no setting to withhold them',
      ],
      adapterProvides: [
        { protection: 'CRD-2', how: "the adapter writes the operator's token into the hub's configuration only when the URL's hostname is exactly the token's host; the hub then sends it on every request to that server" },
      ],
    },
    names: {
      offered: (name) => `${NAMESPACE}${name}`,
      scenario: (offered) => (offered.startsWith(NAMESPACE) ? offered.slice(NAMESPACE.length) : undefined),
    },
    async pin() {
      return { ok: true, detail: 'mcp-hub pins nothing' };
    },
    async start(spec) {
      const port = await freeLoopbackPort();
      const env = await containedEnv(spec.workdir, spec.env);
      await seedMarketplaceCache(env.XDG_DATA_HOME as string);
      const { file, env: secrets } = configuration(spec);
      const configFile = join(spec.workdir, 'mcp-hub.json');
      await writeFile(configFile, JSON.stringify(file, null, 2));
      return spawnLegacySseChannel(process.execPath, [broker.bin, '--port', String(port), '--config', configFile], {
        url: `http://127.0.0.1:${port}/mcp`,
        cwd: spec.workdir,
        env: { ...env, ...secrets, ...(spec.trustedCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: spec.trustedCa }) },
        stderrFile: join(spec.workdir, 'mcp-hub.stderr'),
        readyTimeoutMs: spec.timeoutMs,
        ready: () => untilReady(spec, port),
        ...(spec.launchPrefix === undefined ? {} : { launchPrefix: spec.launchPrefix }),
      });
    },
  };
}

/**
 * Returns once the hub says it has started its server (before that its /mcp answers 500), or
 * once it is clear it will not: then the channel is handed over as it is, and what the hub does
 * (exits, answers nothing) is judged.
 */
async function untilReady(spec: SessionSpec, port: number): Promise<void> {
  await runToExit(...throughPrefix(spec.launchPrefix, process.execPath, [hubReadyEntry, `http://127.0.0.1:${port}/api/health`, String(spec.timeoutMs)]), {
    cwd: spec.workdir,
    stderrFile: join(spec.workdir, 'hub-ready.stderr'),
    timeoutMs: spec.timeoutMs,
  });
}
