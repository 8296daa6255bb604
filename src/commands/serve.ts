// `gauntlet-broker serve`: Load (listing, guards, load report), then the MCP session with the
// agent. Every input the operator gave is checked, and every file the broker keeps is opened,
// before the server is started; the server's group is stopped on every way out.

import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { ApprovalStore } from '../session/approvals.js';
import { AuditLog, reviewedContract } from '../session/audit.js';
import { loadConfig } from '../operator/config.js';
import { ConfigError, EXIT } from '../errors.js';
import { writeTextFile } from '../operator/files.js';
import { selectGuards } from '../guards/registry.js';
import { rediscover } from '../load/drift.js';
import { decideTools, type LoadOutcome } from '../load/load.js';
import { loadManifest } from '../operator/manifest.js';
import { Quarantine } from '../load/quarantine.js';
import { reportText } from '../load/report.js';
import { SharedNotices } from '../front-door/notices.js';
import { FrontDoor } from '../front-door/server.js';
import type { ListenAddress } from '../front-door/address.js';
import { naiveFrontDoor } from '../guards/front-door.js';
import { runSession, Session, type SessionOptions } from '../session/session.js';
import { startAndList } from '../load/startup.js';
import { systemClock } from '../operator/time.js';
import { tokenEnv } from '../upstream/tokens.js';
import { EFFECTS, type Config, type Manifest } from '../types.js';
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

/** Returns the exit code; throws a BrokerError for the failures that have their own code. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  const clock = systemClock;
  const guards = selectGuards(options.disabledGuards);
  const config = loadConfig(options.configPath, guards.file);
  const given = options.manifestPath === undefined ? undefined : loadManifest(options.manifestPath, guards.file);
  for (const guard of guards.config) {
    const problem = guard.check({ config, manifest: given, unpinned: options.unpinned });
    if (problem !== null) throw new ConfigError(`guard ${guard.name} refused the configuration: ${problem}`);
  }
  const manifest: Manifest = given ?? { server: config.server.id, tools: new Map() };
  checkAgent(config, options.agent);
  const approving = EFFECTS.some((effect) => config.policy[effect] === 'approve');
  const stateDir = stateDirectory(options.stateDir, approving, io.log);
  const approvals = approving && stateDir !== undefined ? openApprovals(stateDir) : undefined;
  const auditPath = options.auditPath ?? (options.stateDir === undefined ? undefined : join(options.stateDir, 'audit.jsonl'));
  const audit = auditPath === undefined ? undefined : await AuditLog.open(auditPath, clock, config.server.sourceVersion);

  try {
    const { upstream, listed } = await startAndList(config, guards);
    try {
      const outcome = decideTools(listed, manifest, config, guards);
      if (options.reportPath !== undefined) {
        writeTextFile(options.reportPath, reportText(config.server.id, outcome), 'load report');
      }
      if (audit !== undefined) auditLoad(audit, outcome, options.agent);
      for (const guard of guards.serve) {
        const reason = guard.check(outcome.registered.length);
        if (reason === null) continue;
        io.log(`guard ${guard.name} stopped the broker: ${reason}`);
        return EXIT.nothingRegistered; // the finally below stops the server's group first
      }
      const registered = new Set(outcome.registered.map((tool) => tool.tool));
      const features = decideFeatures(await listFeatures(upstream, config), manifest.features, config, guards.feature, listed.map((tool) => tool.name).filter((name) => !registered.has(name)));
      for (const { kind, key, guard, reason } of features.withheld) io.log(`withheld ${kind} ${escapeServerText(key)}: ${guard}: ${reason}`);
      const session: Omit<SessionOptions, 'send'> = {
        tools: outcome.registered,
        guards,
        context: { agent: options.agent, agents: config.agents, grants: config.grants, policy: config.policy, approvals, clock, quarantine: new Quarantine() },
        limits: config.limits,
        // A server reached by URL was given no environment, but it may hold its host's token,
        // which it must not hand on to the agent either (CRD-1).
        serverEnv: config.server.url === undefined ? config.server.env : tokenEnv(config.server.url),
        upstream,
        audit,
        serverRequests: config.serverRequests,
        rediscovery: {
          rediscover: () => rediscover(upstream, config, manifest, guards, outcome.registered),
          closeUpstream: (why) => upstream.close(why),
        },
        features: new FeatureSession({ offered: features.offered, guards: guards.feature, limits: config.limits, upstream }),
      };
      if (options.frontDoor !== undefined) {
        const notices = new SharedNotices(upstream);
        const door = new FrontDoor({
          ...options.frontDoor,
          plan: guards.frontDoor.reduce((plan, guard) => guard.plan(plan), naiveFrontDoor()),
          maxBodyBytes: config.limits.maxMessageBytes,
          session: (send) => {
            const view = notices.view();
            return { session: new Session({ ...session, upstream: view.upstream, send }), end: view.end };
          },
        });
        const url = await door.listen();
        io.log(`serving ${outcome.registered.length} tool(s) from server "${config.server.id}" at ${url}`);
        // Until the broker is signalled: the signal handlers stop the server's group and exit.
        return await new Promise<never>(() => {});
      }
      io.log(`serving ${outcome.registered.length} tool(s) from server "${config.server.id}"`);
      await runSession(io.input, io.output, { ...session, stopServer: () => upstream.close() });
      return EXIT.ok;
    } finally {
      await upstream.close();
    }
  } finally {
    audit?.close();
  }
}

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
