// `gauntlet-broker serve`: Load (listing, guards, load report), then the MCP session with the
// agent; with several servers, each is started, listed and decided on its own, then all together.
// Every input the operator gave is checked, and every file the broker keeps is opened, before
// the server is started; the server's group is stopped on every way out.

import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { ApprovalStore } from '../session/approvals.js';
import { AuditLog, reviewedContract } from '../session/audit.js';
import { loadConfigs } from '../operator/config.js';
import { ConfigError, EXIT } from '../errors.js';
import { writeTextFile } from '../operator/files.js';
import { selectGuards } from '../guards/registry.js';
import { rediscover } from '../load/drift.js';
import { decideFleet } from '../load/fleet.js';
import { decideTools, type LoadOutcome } from '../load/load.js';
import { decideInstructions } from '../load/instructions.js';
import { loadManifests } from '../operator/manifest.js';
import { Quarantine } from '../load/quarantine.js';
import { PrivateReads } from '../session/private-reads.js';
import { reportText } from '../load/report.js';
import { SharedNotices } from '../front-door/notices.js';
import { readFrontDoorCredential } from '../front-door/credential.js';
import { FrontDoor } from '../front-door/server.js';
import type { ListenAddress } from '../front-door/address.js';
import { naiveFrontDoor } from '../guards/front-door.js';
import { runSession, Session, type SessionOptions } from '../session/session.js';
import { startAndList, type Started } from '../load/startup.js';
import { PerRequestUpstream } from '../upstream/per-request.js';
import { paramAnnotations } from '../schema/param-headers.js';
import { systemClock } from '../operator/time.js';
import { tokenEnv } from '../upstream/tokens.js';
import type { ServerEnv } from '../guards/types.js';
import { EFFECTS, type ClientFacts, type Config, type Manifest } from '../types.js';
import { NO_CAPABILITIES, commonCapabilities, declarableCapabilities } from '../operator/client-capabilities.js';
import { escapeServerText } from '../inspect/sanitize.js';
import { decideFeatures } from '../features/decide.js';
import { listFeatures } from '../features/listing.js';
import { FeatureSession } from '../features/session.js';

export interface ServeOptions {
  readonly configPath: string;
  /** Required (the `manifest-required` guard) unless `unpinned`. */
  readonly manifestPath: string | undefined;
  /** Serve knowingly with nothing pinned, so every tool is unpinned (the harness serves this way
   * after a refused pin). */
  readonly unpinned: boolean;
  readonly reportPath: string | undefined;
  readonly disabledGuards: readonly string[];
  /** Where approvals live, and the audit trail unless auditPath names another file. */
  readonly stateDir: string | undefined;
  /** The session's agent; required when the configuration names agents. */
  readonly agent: string | undefined;
  readonly auditPath: string | undefined;
  /** Serve the agent over Streamable HTTP here instead of on stdio (docs/front-door.md). */
  readonly frontDoor?: { readonly listen: ListenAddress; readonly allowedOrigins: readonly string[] };
}

export interface ServeIo {
  readonly input: Readable;
  readonly output: Writable;
  /** Diagnostics; never the MCP channel. */
  readonly log: (line: string) => void;
}

/** One server the broker serves: its configuration, and the manifest its review gave. */
interface Member {
  readonly config: Config;
  readonly manifest: Manifest;
}

/** Returns the exit code; throws a BrokerError for the failures that have their own code. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  const clock = systemClock;
  const guards = selectGuards(options.disabledGuards);
  const configs = loadConfigs(options.configPath, guards.file);
  const given = options.manifestPath === undefined ? undefined : loadManifests(options.manifestPath, guards.file);
  const members = configs.map((config): Member => {
    // One server's manifest is judged as given (a foreign one is manifest-server's to refuse);
    // with several, each server's is the set's manifest of that server, if there is one.
    const manifest = given === undefined ? undefined : configs.length === 1 ? given[0] : given.find((pinned) => pinned.server === config.server.id);
    for (const guard of guards.config) {
      const problem = guard.check({ config, manifest, unpinned: options.unpinned });
      if (problem !== null) throw new ConfigError(`guard ${guard.name} refused the configuration: ${problem}`);
    }
    return { config, manifest: manifest ?? { server: config.server.id, tools: new Map() } };
  });
  // Grants, policy, agents and limits are the operator's for every server alike.
  const config = configs[0]!;
  checkAgent(config, options.agent);
  // Read before any server starts: a token the broker would refuse refuses the start.
  const frontDoorCredential = options.frontDoor === undefined ? undefined : readFrontDoorCredential(process.env);
  const approving = EFFECTS.some((effect) => config.policy[effect] === 'approve');
  const stateDir = stateDirectory(options.stateDir, approving, io.log);
  const approvals = approving && stateDir !== undefined ? openApprovals(stateDir) : undefined;
  const auditPath = options.auditPath ?? (options.stateDir === undefined ? undefined : join(options.stateDir, 'audit.jsonl'));
  const audit = auditPath === undefined ? undefined : await AuditLog.open(auditPath, clock, config.server.sourceVersion);

  const started: Started[] = [];
  try {
    // One at a time, each started and listed as if it were the only one.
    for (const { config: own, manifest } of members) started.push(await startAndList(own, guards, declaredCapabilities(own, manifest, given !== undefined)));
    const outcome = decideFleet(
      members.map(({ config: own, manifest }, i) => decideTools(started[i]!.listed, manifest, own, guards)),
      guards,
    );
    const serverIds = configs.map((own) => own.server.id);
    if (options.reportPath !== undefined) {
      writeTextFile(options.reportPath, reportText(serverIds.join(', '), outcome), 'load report');
    }
    if (audit !== undefined) auditLoad(audit, outcome, options.agent);
    for (const guard of guards.serve) {
      const reason = guard.check(outcome.registered.length);
      if (reason === null) continue;
      io.log(`guard ${guard.name} stopped the broker: ${reason}`);
      return EXIT.nothingRegistered; // the finally below stops the servers' groups first
    }
    const served = `${outcome.registered.length} tool(s) from server${serverIds.length === 1 ? '' : 's'} ${serverIds.map((id) => `"${id}"`).join(', ')}`;
    const servers = new Map(
      members.map(({ config: own, manifest }, i) => {
        const { upstream } = started[i]!;
        const rediscovery = {
          rediscover: () => rediscover(upstream, own, manifest, guards, outcome.registered.filter((tool) => tool.server === own.server.id)),
          closeUpstream: (why: string) => upstream.close(why),
        };
        return [own.server.id, { upstream, rediscovery, logging: started[i]!.logging }] as const;
      }),
    );
    // A 2026-07-28 server tells of its changes only to a subscriber. One over stdio is subscribed
    // before the agent is served: it reads the listen when it gets to it, and must not get to it
    // after a change it would then tell no one of. Over HTTP the listen is a POST whose response
    // is the stream, which a server may leave without a word until it has something to say (the
    // kit's does), so the agent is not kept waiting for it.
    const listens = started.flatMap(({ upstream }, i) => (upstream instanceof PerRequestUpstream ? [{ listening: upstream.listen(config.limits.connectTimeoutMs), stdio: members[i]!.config.server.url === undefined }] : []));
    await Promise.all(listens.filter(({ stdio }) => stdio).map(({ listening }) => listening));
    const first = servers.get(config.server.id)!;
    // Resources and prompts are configured for one server only (operator/config.ts): the first.
    const registered = new Set(outcome.registered.map((tool) => tool.tool));
    const unregistered = started[0]!.listed.map((tool) => tool.name).filter((name) => !registered.has(name));
    const features = decideFeatures(await listFeatures(first.upstream, config), members[0]!.manifest.features, config, guards.feature, unregistered);
    for (const { kind, key, guard, reason } of features.withheld) io.log(`withheld ${kind} ${escapeServerText(key)}: ${guard}: ${reason}`);
    const instructions = decideInstructions(
      members.map(({ config: own, manifest }, i) => ({ server: own.server.id, text: started[i]!.instructions, pinnedHash: manifest.instructionsHash })),
      guards,
      config.limits,
    );
    for (const { server, reason } of instructions.withheld) io.log(`withheld the instructions of server "${server}": ${reason}`);
    const session: Omit<SessionOptions, 'send'> = {
      tools: outcome.registered,
      guards,
      context: { agent: options.agent, agents: config.agents, grants: config.grants, policy: config.policy, approvals, clock, quarantine: new Quarantine(), privateReads: new PrivateReads() },
      limits: config.limits,
      serverEnv: lentValues(configs),
      upstream: first.upstream,
      logging: started[0]!.logging,
      rediscovery: first.rediscovery,
      ...(members.length > 1 ? { servers } : {}),
      audit,
      serverRequests: config.serverRequests,
      nonText: config.nonText,
      instructions: instructions.text,
      toolListHints: started[0]!.cacheHints,
      features: new FeatureSession({ offered: features.offered, guards: guards.feature, limits: config.limits, nonText: config.nonText, upstream: first.upstream }),
    };
    if (options.frontDoor !== undefined) {
      // Each HTTP session sees the server's notices through a view of its own connection.
      if (members.length > 1) throw new ConfigError('the front door serves one server; the configuration names several');
      const plan = guards.frontDoor.reduce((shaped, guard) => guard.plan(shaped), naiveFrontDoor());
      const notices = new SharedNotices(first.upstream, plan.attributeLogs);
      // The annotations of the schema each tool is offered with, read once: a call's Mcp-Param-* headers are checked against them.
      const annotated = new Map(outcome.registered.flatMap((tool) => {
        const read = paramAnnotations(tool.shown.inputSchema);
        return read.ok && read.headers.length > 0 ? [[tool.name, read.headers] as const] : [];
      }));
      const door = new FrontDoor({
        ...options.frontDoor,
        paramHeaders: (name) => annotated.get(name),
        ...(frontDoorCredential === undefined ? {} : { credential: frontDoorCredential }),
        plan,
        maxBodyBytes: config.limits.maxMessageBytes,
        session: (send, inputs) => {
          const view = notices.view();
          // Each answer goes out as it is made, after the records of what it follows from.
          const flushed = (line: string): void => {
            audit?.flush();
            send(line);
          };
          return { session: new Session({ ...session, upstream: view.upstream, send: flushed, subscriptions: false, ...(inputs === undefined ? {} : { inputs }) }), end: view.end };
        },
      });
      const url = await door.listen();
      io.log(`serving ${served} at ${url}`);
      // Until the broker is signalled: the signal handlers stop the server's group and exit.
      return await new Promise<never>(() => {});
    }
    io.log(`serving ${served}`);
    await runSession(io.input, io.output, { ...session, stopServer: () => closeAll(started) });
    return EXIT.ok;
  } finally {
    await closeAll(started);
    audit?.close();
  }
}

/**
 * The client capabilities declared to a server: what the operator permits, and with a manifest no
 * more than it was pinned under (a manifest from before they were recorded, none), so the server
 * presents what was reviewed and never more. They do not wait for the agent's own: the server is
 * started and decided before any agent's handshake, and behind the front door it serves many
 * agents; a request for a feature the session's agent did not declare is refused by the relay
 * (docs/reference-broker.md, "Capabilities declared to the server").
 */
function declaredCapabilities(config: Config, manifest: Manifest, pinned: boolean): ClientFacts {
  const permitted = declarableCapabilities(config);
  return pinned ? commonCapabilities(permitted, manifest.capabilities ?? NO_CAPABILITIES) : permitted;
}

/**
 * What the operator lent the servers, never the agent's to read: each started server's
 * environment, and the token of each server's host. A server that quotes back what another was
 * lent is redacted too; with several servers each value is named by its server.
 */
function lentValues(configs: readonly Config[]): ServerEnv {
  const lent = (own: Config): ReadonlyMap<string, string> => (own.server.url === undefined ? own.server.env : tokenEnv(own.server.url));
  if (configs.length === 1) return lent(configs[0]!);
  return new Map(configs.flatMap((own) => [...lent(own)].map(([name, value]) => [`${own.server.id}.${name}`, value] as const)));
}

const closeAll = async (started: readonly Started[]): Promise<void> => {
  await Promise.all(started.map(({ upstream }) => upstream.close()));
};

/** With agents configured, a session must name one of them. */
function checkAgent(config: Config, agent: string | undefined): void {
  if (config.agents === undefined || (agent !== undefined && config.agents.has(agent))) return;
  throw new ConfigError(
    agent === undefined
      ? `the configuration names agents, so serve needs --agent (one of ${[...config.agents.keys()].join(', ')})`
      : `--agent ${agent} is not an agent the configuration names`,
  );
}

/**
 * The state directory, made if missing. Without --state-dir there is one only when the policy
 * holds some class for approval: the broker then makes a private one and says where, so the
 * operator can still decide.
 */
function stateDirectory(given: string | undefined, needed: boolean, log: (line: string) => void): string | undefined {
  try {
    if (given !== undefined) {
      mkdirSync(given, { recursive: true, mode: 0o700 });
      return given;
    }
    if (!needed) return undefined;
    const made = mkdtempSync(join(tmpdir(), 'gauntlet-broker-state-'));
    log(`no --state-dir given: approvals are kept in ${made}`);
    return made;
  } catch (err) {
    throw new ConfigError(`cannot prepare the state directory: ${(err as Error).message}`);
  }
}

function openApprovals(dir: string): ApprovalStore {
  try {
    return new ApprovalStore(dir);
  } catch (err) {
    throw new ConfigError(`cannot prepare the state directory ${dir}: ${(err as Error).message}`);
  }
}

function auditLoad(audit: AuditLog, outcome: LoadOutcome, agent: string | undefined): void {
  const common = { agent: agent ?? null, code: null, toolExists: null, call: null };
  for (const tool of outcome.registered) {
    const detail = tool.effect === undefined ? null : `effect ${tool.effect}`;
    audit.record({ ...common, decision: 'registered', tool: tool.tool, name: tool.name, contract: reviewedContract(tool.pin), detail });
  }
  for (const refusal of outcome.refused) {
    audit.record({ ...common, decision: 'refused', tool: refusal.tool, name: null, contract: null, detail: `${refusal.guard}: ${refusal.reason}` });
  }
}
