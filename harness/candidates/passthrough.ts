import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { REVISIONS } from '../agent/revisions.js';
import { passthroughEntry } from '../paths.js';
import { spawnChannel, throughPrefix } from './child.js';
import type { AggregatedServer } from './aggregator.js';
import { startHttpAgent } from './agent-http.js';
import { FRONT_DOOR_KEY_HEADER, FRONT_DOOR_KEY_VARIABLE } from './naive-front-door.js';
import { ADAPTER_PROTOCOL, type AgentChannel, type Candidate, type NamedUpstream, type SessionSpec } from './types.js';

/**
 * `${NAME}` and `$NAME` in a configured value replaced by the proxy's own variable, as many
 * gateways' configuration files allow (and an unset one by nothing, as a shell does): the naive
 * reading of a server's `env` that CRD-3 is about, where writing a name is enough to hand the
 * server any secret the proxy holds.
 */
export function expandReferences(value: string, own: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced?: string, bare?: string) => own[(braced ?? bare) as string] ?? '');
}

/**
 * Several servers as the aggregator is told them: how each is reached, its prefix, and the
 * renames, kept as a careless gateway keeps them: one flat table by tool name for all servers,
 * so a rename the operator wrote for one server's tool renames any server's tool of that name.
 */
function aggregated(servers: readonly NamedUpstream[], own: NodeJS.ProcessEnv): AggregatedServer[] {
  const renames = Object.fromEntries(
    servers.flatMap(({ operator }) => Object.entries(operator.tools).flatMap(([tool, rule]) => (rule.rename === undefined ? [] : [[tool, rule.rename] as const]))),
  );
  return servers.map(({ name, upstream, operator }) => ({
    name,
    ...('url' in upstream
      ? { url: upstream.url }
      : { command: upstream.command, args: upstream.args, env: Object.fromEntries(Object.entries(operator.env ?? {}).map(([variable, value]) => [variable, expandReferences(value, own)])) }),
    ...(operator.prefix === undefined ? {} : { prefix: operator.prefix }),
    renames,
  }));
}

/**
 * Starts the no-protection proxy in front of the session's server, told `proxyOptions` first;
 * for an agent reached over HTTP, serving it on a free loopback port with its naive front door.
 */
async function startProxy(spec: SessionSpec, name: string, proxyOptions: readonly string[], frontDoorKey?: string): Promise<AgentChannel> {
  const { credentials, config_token: configToken, config_token_env: configTokenEnv } = spec.operator;
  const target =
    spec.servers !== undefined
      ? ['--servers', JSON.stringify(aggregated(spec.servers, spec.env)), ...(credentials === undefined ? [] : ['--tokens', JSON.stringify(credentials)])]
      : 'url' in spec.upstream
      ? [
          '--url',
          spec.upstream.url,
          ...(credentials === undefined ? [] : ['--tokens', JSON.stringify(credentials)]),
          ...(configToken === undefined ? [] : ['--token', configToken]),
          // A naive gateway reads the named variable from its own environment (CRD-3).
          ...(configTokenEnv === undefined ? [] : ['--token', spec.env[configTokenEnv] ?? '']),
        ]
      : ['--', spec.upstream.command, ...spec.upstream.args];
  const options = {
    cwd: spec.workdir,
    // The server starts as the operator configured it, its variables on top of everything the
    // proxy has: starting a server is no protection, and guarding what it was given is none.
    // References to the proxy's own variables in a configured value are expanded.
    env: {
      ...spec.env,
      ...Object.fromEntries(Object.entries(spec.operator.env ?? {}).map(([variable, value]) => [variable, expandReferences(value, spec.env)])),
      ...(spec.trustedCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: spec.trustedCa }),
      ...(frontDoorKey === undefined ? {} : { [FRONT_DOOR_KEY_VARIABLE]: frontDoorKey }),
    },
    stderrFile: join(spec.workdir, `${name}.stderr`),
  };
  if (spec.agentHttp === undefined) return spawnChannel(...throughPrefix(spec.launchPrefix, process.execPath, [passthroughEntry, ...proxyOptions, ...target]), options);
  // It listens on every interface; the agent dials loopback only.
  const credential = frontDoorKey === undefined ? undefined : { header: FRONT_DOOR_KEY_HEADER, value: frontDoorKey };
  return startHttpAgent(spec, (port) => [passthroughEntry, '--front-door', String(port), ...proxyOptions, ...target], options, credential);
}

/**
 * The baseline: a plain proxy with no protections at all. It claims none, and it offers every
 * hook, honestly empty (an approval channel that never holds anything, an audit trail and a load
 * report it never writes, flaws in operator files it never reads), so every scenario runs
 * against it; it enforces nothing, so every attack must fail against it with `exposed`. An attack
 * it passes is a scenario that cannot fail.
 */
export function passthroughCandidate(): Candidate {
  return proxyCandidate('passthrough', []);
}

/**
 * The passthrough's process under `name`, started with `proxyOptions` in front of its target: the
 * harness's self-test fixtures (label-stamper.ts) are the same proxy told to lie in one way, or,
 * `keyedFrontDoor`, told to require a key of its own at its front door (keyed-front-door.ts).
 */
export function proxyCandidate(name: string, proxyOptions: readonly string[], fixture: { keyedFrontDoor?: boolean } = {}): Candidate {
  return {
    info: {
      name,
      version: '0.1.0',
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command', 'url'],
      servers: 'many',
      // It reads no operator file, so every flaw is as good as written: it serves regardless.
      configFlaws: true,
      agentTransports: ['stdio', 'http'],
      // It relays lines, whatever revision they speak.
      revisions: REVISIONS,
    },
    async pin() {
      return { ok: true, detail: `${name} pins nothing` };
    },
    async approve() {
      // There is nothing to approve: passthrough never holds a call.
    },
    async audit() {
      return [];
    },
    async auditLines() {
      return [];
    },
    async loadReport() {
      return undefined;
    },
    async start(spec) {
      // The keyed fixture draws its key for each start, as a bridge that prints a fresh token does.
      return startProxy(spec, name, proxyOptions, fixture.keyedFrontDoor ? randomBytes(24).toString('base64url') : undefined);
    },
  };
}

/**
 * The same proxy as a third party's adapter for a plain proxy would describe it: listing and
 * calls, reached by command or URL, and no hook at all. What it cannot run is exactly what needs
 * a hook; everything else gets a verdict, which is what a user of such a proxy is exposed to.
 */
export function plainProxyCandidate(): Candidate {
  const { pin, start } = proxyCandidate('plain-proxy', []);
  return {
    pin,
    start,
    info: {
      name: 'plain-proxy',
      version: '0.1.0',
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command', 'url'],
      agentTransports: ['stdio', 'http'],
      revisions: REVISIONS,
      unapplied: ['every operator rule: the proxy has no configuration of its own'],
    },
  };
}
