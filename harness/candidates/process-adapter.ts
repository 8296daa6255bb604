import { join, resolve } from 'node:path';
import { AdapterError } from './adapter-error.js';
import { AdapterProcess } from './adapter-process.js';
import { spawnChannel, throughPrefix } from './child.js';
import { freeLoopbackPort } from './free-port.js';
import { spawnHttpChannel } from '../agent/http-channel.js';
import type { Revision } from '../agent/revisions.js';
import { protocolViolation } from './protocol-schemas.js';
import { closingAlso } from './wrapped-channel.js';
import {
  ADAPTER_PROTOCOL,
  type AdapterProtection,
  type AgentChannel,
  type Candidate,
  type CandidateInfo,
  type Feature,
  type FrontDoorCredential,
  type NeutralAuditRecord,
  type NeutralLoadReport,
  type SessionSpec,
} from './types.js';

/** Bound on the handshake, which comes before any session and its timeout. */
const HELLO_TIMEOUT_MS = 10_000;

type Hook = 'approve' | 'audit' | 'audit-lines' | 'load-report' | 'start-refusal';

interface Hello {
  protocol: string;
  name: string;
  version: string;
  claims: string[];
  hooks: Hook[];
  upstreams: Array<'command' | 'url'>;
  agent_transports?: Array<'stdio' | 'http'>;
  /** Absent from adapters written before it: their broker serves 2025-11-25. */
  revisions?: Revision[];
  oauth_client?: boolean;
  config_flaws: boolean;
  unapplied: string[];
  /** Absent from adapters written before it: they serve one server. */
  servers?: 'one' | 'many';
  /** Absent from adapters written before it, and from those that add nothing of their own. */
  adapter_provides?: AdapterProtection[];
}

interface Reach {
  transport: 'stdio' | 'http';
  url?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** The credential the broker's front door requires, for an http transport whose broker has one. */
  front_door_auth?: FrontDoorCredential;
}

/** How an adapter file is started: a `.py` with python3, anything else as an executable. */
function adapterCommand(path: string): [string, string[]] {
  const absolute = resolve(path);
  return absolute.endsWith('.py') ? ['python3', [absolute]] : [absolute, []];
}

/** The neutral session in the protocol's snake_case form (session.schema.json). */
function sessionJson(spec: SessionSpec, id: string): Record<string, unknown> {
  return {
    id,
    workdir: spec.workdir,
    upstream: spec.upstream,
    ...(spec.servers === undefined ? {} : { servers: spec.servers }),
    operator: spec.operator,
    ...(spec.flaw === undefined ? {} : { flaw: spec.flaw }),
    ...(spec.agent === undefined ? {} : { agent: spec.agent }),
    env: Object.fromEntries(Object.entries(spec.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    timeout_ms: spec.timeoutMs,
    ...(spec.launchPrefix?.length ? { launch_prefix: spec.launchPrefix } : {}),
    ...(spec.trustedCa === undefined ? {} : { trusted_ca: spec.trustedCa }),
    ...(spec.agentHttp === undefined ? {} : { agent_http: spec.agentHttp }),
  };
}

/**
 * The broker a start answer names, started by the harness (through the session's launch prefix)
 * so that the harness owns its process group and keeps its stderr.
 */
async function brokerChannel(reach: Reach, spec: SessionSpec): Promise<AgentChannel> {
  const options = { cwd: reach.cwd ?? spec.workdir, env: { ...spec.env, ...reach.env }, stderrFile: join(spec.workdir, 'broker.stderr') };
  if (reach.transport === 'stdio') return spawnChannel(...throughPrefix(spec.launchPrefix, reach.command, reach.args), options);
  // The HTTP channel applies the launch prefix itself (and relays into an enclosure); the agent's
  // bound on initialize starts once the broker accepts connections.
  const channel = spawnHttpChannel(reach.command, reach.args, {
    ...options,
    url: reach.url!,
    ...(spec.launchPrefix ? { launchPrefix: spec.launchPrefix } : {}),
    ...(spec.agentHttp ? { headers: spec.agentHttp.headers } : {}),
    ...(reach.front_door_auth ? { credential: reach.front_door_auth } : {}),
  });
  await channel.ready;
  return channel;
}

export interface ProtocolAdapter {
  candidate: Candidate;
  process: AdapterProcess;
}

/**
 * Starts an adapter executable and turns it into a Candidate: hello's declaration becomes its
 * info, and it has a hook method for exactly the hooks hello offered. Its declaration is checked
 * by the caller as any adapter's is (registry.ts).
 */
export async function openProtocolAdapter(path: string, helloTimeoutMs = HELLO_TIMEOUT_MS): Promise<ProtocolAdapter> {
  const adapter = new AdapterProcess(path, ...adapterCommand(path));
  let hello: Hello;
  try {
    hello = await handshake(adapter, helloTimeoutMs);
  } catch (error) {
    await adapter.end();
    throw error;
  }
  // One session id per scenario, which is what a workdir is: its pins, starts and hooks share it.
  const sessionIds = new Map<string, string>();
  const session = (spec: SessionSpec) => {
    if (!sessionIds.has(spec.workdir)) sessionIds.set(spec.workdir, `session-${sessionIds.size + 1}`);
    return sessionJson(spec, sessionIds.get(spec.workdir)!);
  };
  const ask = (method: Parameters<AdapterProcess['request']>[0], spec: SessionSpec, params: Record<string, unknown> = {}) =>
    adapter.request(method, { session: session(spec), ...params }, spec.timeoutMs);
  const stop = async (spec: SessionSpec) => void (await ask('stop', spec));

  const info: CandidateInfo = {
    name: hello.name,
    version: hello.version,
    adapterProtocol: ADAPTER_PROTOCOL,
    claims: hello.claims as Feature[],
    upstreams: hello.upstreams,
    ...(hello.agent_transports === undefined ? {} : { agentTransports: hello.agent_transports }),
    ...(hello.revisions === undefined ? {} : { revisions: hello.revisions }),
    ...(hello.oauth_client === undefined ? {} : { oauthClient: hello.oauth_client }),
    configFlaws: hello.config_flaws,
    unapplied: hello.unapplied,
    ...(hello.servers === undefined ? {} : { servers: hello.servers }),
    ...(hello.adapter_provides === undefined ? {} : { adapterProvides: hello.adapter_provides }),
  };
  const offers = (hook: Hook) => hello.hooks.includes(hook);
  const candidate: Candidate = {
    info,
    pin: async (spec) => (await ask('pin', spec)) as { ok: boolean; detail: string },
    async start(spec) {
      const reach = (await ask('start', spec, { port: await freeLoopbackPort() })) as Reach;
      let channel: AgentChannel;
      try {
        channel = await brokerChannel(reach, spec);
      } catch (error) {
        await stop(spec).catch(() => undefined);
        throw error;
      }
      // Closing the channel also tells the adapter the broker is gone, so it ends what it started itself.
      return closingAlso(channel, () => stop(spec));
    },
    ...(offers('load-report') && { loadReport: async (spec: SessionSpec) => ((await ask('load_report', spec)) as NeutralLoadReport | null) ?? undefined }),
    ...(offers('start-refusal') && {
      startRefusal: async (spec: SessionSpec, exit) =>
        ((await ask('start_refusal', spec, { exit: { code: exit.code, signal: exit.signal, ...(exit.error === undefined ? {} : { error: exit.error }) } })) as string | null) ?? undefined,
    }),
    ...(offers('approve') && {
      approve: async (spec: SessionSpec, decision) =>
        void (await ask('approve', spec, { decision: { request_id: decision.requestId, decision: decision.decision, ...(decision.expiresAt === undefined ? {} : { expires_at: decision.expiresAt }) } })),
    }),
    ...(offers('audit') && { audit: async (spec: SessionSpec) => (await ask('audit', spec)) as NeutralAuditRecord[] }),
    ...(offers('audit-lines') && { auditLines: async (spec: SessionSpec) => (await ask('audit_lines', spec)) as string[] }),
    dispose: async () => void (await adapter.end()),
  };
  return { candidate, process: adapter };
}

/** hello: the protocol is compared first, so an adapter of another version is told so rather than shown schema errors. */
async function handshake(adapter: AdapterProcess, timeoutMs: number): Promise<Hello> {
  const result = await adapter.call('hello', { protocol: ADAPTER_PROTOCOL }, timeoutMs);
  const spoken = (result as { protocol?: unknown } | null)?.protocol;
  if (spoken !== ADAPTER_PROTOCOL) throw new AdapterError(`${adapter.source}: the adapter speaks ${String(spoken)}, the harness speaks ${ADAPTER_PROTOCOL}`);
  const violation = protocolViolation('hello.answer', { id: 1, result });
  if (violation !== undefined) throw new AdapterError(`${adapter.source}: hello: the answer does not match hello.answer.schema.json: ${violation}`);
  return result as Hello;
}
