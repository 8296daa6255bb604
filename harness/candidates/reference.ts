import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { REVISIONS } from '../agent/revisions.js';
import { join } from 'node:path';
import { stringify as stringifyLossless } from 'lossless-json';
import { brokerEntry } from '../paths.js';
import type { AdapterFlaw, OperatorConfig, ServerOperator } from '../scenario/types.js';
import { runToExit, spawnChannel, throughPrefix } from './child.js';
import { startHttpAgent } from './agent-http.js';
import { ADAPTER_PROTOCOL, FEATURES, type Candidate, type Feature, type NeutralAuditRecord, type NeutralLoadReport, type SessionSpec } from './types.js';

export interface ReferenceOptions {
  /** Guards to leave out: the suite's own tests use this to prove each guard is needed. */
  disabledGuards?: readonly string[];
}

const files = (spec: SessionSpec) => ({
  config: join(spec.workdir, 'reference-config.json'),
  manifest: join(spec.workdir, 'reference-manifest.json'),
  pinLog: join(spec.workdir, 'reference-pin.stderr'),
  report: join(spec.workdir, 'reference-load.json'),
  serveStderr: join(spec.workdir, 'reference-serve.stderr'),
  state: join(spec.workdir, 'reference-state'),
  audit: join(spec.workdir, 'reference-state', 'audit.jsonl'),
});

/** The neutral rule's `timeout_ms` is the broker's `call_timeout_ms`; every other name is shared. */
function rulesFor(operator: Pick<OperatorConfig, 'tools'>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(operator.tools).map(([tool, { timeout_ms, ...rule }]) => [tool, timeout_ms === undefined ? { ...rule } : { ...rule, call_timeout_ms: timeout_ms }]),
  );
}

/**
 * The broker's environment: the operator's, plus the opt-in for a private origin and the map of
 * tokens by hostname when the operator gave them. The broker reads both from its environment only
 * (NET-6, CRD-1).
 */
function brokerEnv(spec: SessionSpec): NodeJS.ProcessEnv {
  const { credentials } = spec.operator;
  // With several servers, every origin one of them opts in to, separated by spaces.
  const origins = [spec.operator, ...(spec.servers ?? []).map((server) => server.operator)].flatMap((part) => part.allow_private_origin ?? []);
  const origin = origins.length === 0 ? undefined : origins.join(' ');
  return {
    ...spec.env,
    ...(origin === undefined ? {} : { GAUNTLET_BROKER_ALLOW_PRIVATE_ORIGIN: origin }),
    // The credentials map too is read from the broker's environment only (CRD-1).
    ...(credentials === undefined ? {} : { GAUNTLET_BROKER_TOKENS: JSON.stringify(credentials) }),
    // Node reads extra certificate authorities from here at startup, for every TLS connection.
    ...(spec.trustedCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: spec.trustedCa }),
  };
}

/** The broker's variable for its front door's credential (src/front-door/credential.ts), and the bytes drawn for one. */
const FRONT_DOOR_TOKEN_VARIABLE = 'GAUNTLET_BROKER_FRONT_DOOR_TOKEN';
const FRONT_DOOR_TOKEN_BYTES = 32;

/** The flaws that are about a file's mode rather than its content. */
const FILE_FLAWS: ReadonlySet<AdapterFlaw> = new Set(['rules-file-writable', 'manifest-file-writable']);

/** Private to the user, as an operator keeps them; a file flaw opens one to its group and others. */
const PRIVATE_MODE = 0o600;
const SHARED_MODE = 0o666;

/**
 * The flaws that hand the broker a corrupt pin store (CFG-5), each made from the manifest the pin
 * wrote: the text a manifest flaw puts in its place, or `directory` for a directory there.
 */
const MANIFEST_CORRUPTIONS: Partial<Record<AdapterFlaw, (pinned: string) => string | 'directory'>> = {
  'manifest-truncated': (pinned) => pinned.slice(0, Math.floor(pinned.length / 2)),
  'manifest-empty': () => '',
  // The pin writes one object; a second `tools` after the first is what a last-wins parser keeps.
  'manifest-duplicate-key': (pinned) => pinned.replace(/\}\s*$/, ',\n  "tools": {}\n}\n'),
  'manifest-directory': () => 'directory',
};

/**
 * The manifest the broker is given for this start: the pinned one, or for a manifest flaw a
 * corrupt copy beside it, so the reviewed manifest stays as pinned for the next start.
 */
async function manifestFor(spec: SessionSpec, pinned: string): Promise<string> {
  const corrupt = spec.flaw === undefined ? undefined : MANIFEST_CORRUPTIONS[spec.flaw];
  if (corrupt === undefined || !existsSync(pinned)) return pinned;
  const made = corrupt(await readFile(pinned, 'utf8'));
  const path = join(spec.workdir, `reference-manifest-${spec.flaw}`);
  await rm(path, { recursive: true, force: true });
  if (made === 'directory') await mkdir(path, { mode: 0o700 });
  else await writeFile(path, made, { mode: PRIVATE_MODE });
  return path;
}

/** Writes a flaw the neutral form cannot carry into the broker's own file: the first rule's, or the server's. */
function applyFlaw(flaw: AdapterFlaw, rules: Record<string, unknown>, server: Record<string, unknown>): void {
  if (FILE_FLAWS.has(flaw) || flaw in MANIFEST_CORRUPTIONS) return;
  const [tool] = Object.keys(rules);
  const rule = (tool === undefined ? undefined : rules[tool]) as Record<string, unknown> | undefined;
  if (flaw === 'malformed-env') {
    server.env = { '1-NOT A NAME': 'value' };
    return;
  }
  if (rule === undefined) throw new Error(`a ${flaw} flaw needs a rule to put it in`);
  if (flaw === 'unknown-effect') rule.effect = 'read_mostly';
  else if (flaw === 'missing-effect') delete rule.effect;
  // A misspelled field: the restriction the operator meant to set would not exist.
  else if (flaw === 'unknown-rule-field') rule.permision = 'notes.write';
}

/** A server's entry in the broker's file: how it is reached, its prefix and reviewed version. */
function serverEntry(id: string, upstream: SessionSpec['upstream'], operator: ServerOperator): Record<string, unknown> {
  // A server reached by URL has no process, so no environment of its own to set.
  const reached = 'url' in upstream ? { url: upstream.url } : { command: upstream.command, args: upstream.args, ...(operator.env ? { env: operator.env } : {}) };
  return {
    id,
    ...reached,
    ...(operator.prefix ? { prefix: operator.prefix } : {}),
    ...(operator.source_version ? { source_version: operator.source_version } : {}),
  };
}

/** Translates the neutral operator configuration into the reference broker's own file. */
async function writeConfig(spec: SessionSpec): Promise<string> {
  const path = files(spec).config;
  const { operator } = spec;
  const server: Record<string, unknown> = {
    ...serverEntry(spec.upstream.id, spec.upstream, operator),
    // Written where a careless operator would put it; the broker must refuse it (CRD-1).
    ...(operator.config_token ? { token: operator.config_token } : {}),
    ...(operator.config_token_env ? { token_env: operator.config_token_env } : {}),
  };
  const rules = rulesFor(operator);
  if (spec.flaw !== undefined) applyFlaw(spec.flaw, rules, server);
  // Several servers: each entry names its server by the scenario's name and carries its own rules.
  const served =
    spec.servers === undefined
      ? { server, rules }
      : { servers: spec.servers.map(({ name, upstream, operator: own }) => ({ ...serverEntry(name, upstream, own), rules: rulesFor(own) })) };
  const config = {
    ...served,
    ...(operator.grants ? { grants: operator.grants } : {}),
    ...(operator.policy ? { policy: operator.policy } : {}),
    ...(operator.agents ? { agents: operator.agents } : {}),
    ...(operator.resources ? { resources: operator.resources } : {}),
    ...(operator.prompts ? { prompts: operator.prompts } : {}),
    limits: operator.limits ?? {},
    ...serverRequestsOf(operator),
    ...(operator.non_text === undefined ? {} : { non_text: operator.non_text }),
  };
  // Lossless, so a fixed value written `!exact` reaches the broker digit for digit.
  await writeFile(path, stringifyLossless(config, undefined, 2) ?? '');
  // Set each time: the mode of an existing file survives writeFile, and a flaw is for one start.
  await chmod(path, spec.flaw === 'rules-file-writable' ? SHARED_MODE : PRIVATE_MODE);
  return path;
}

/** The operator's say over what the server starts on its own, as the broker's `server_requests`. */
function serverRequestsOf({ sampling, elicitation, roots, notifications }: SessionSpec['operator']): { server_requests?: Record<string, unknown> } {
  const given = { sampling, elicitation, roots, notifications };
  const set = Object.entries(given).filter(([, value]) => value !== undefined);
  return set.length === 0 ? {} : { server_requests: Object.fromEntries(set) };
}

interface ReferenceLoadReport {
  registered: Array<{ tool: string; name: string; effect: string | null; hint_mismatch_overridden?: string }>;
  refused: Array<{ tool: string; guard: string; reason: string }>;
  unpinned: string[];
  unclassified: string[];
}

/** How the broker starts each line it writes on stderr (src/commands/command-line.ts). */
const DIAGNOSTIC_PREFIX = 'gauntlet-broker: ';

/**
 * The broker's exit codes for a refusal to serve (docs/reference-broker.md): a command line,
 * configuration or manifest it refuses (2), nothing it could register (3), a server it would not
 * trust or could not speak to (4). Exit 1 is an internal error, which refuses nothing.
 */
const EXIT_REFUSALS: ReadonlySet<number> = new Set([2, 3, 4]);

/**
 * mcp-gauntlet's own broker, driven exactly as a third-party broker would be: as a separate
 * process, through its command line and its files.
 */
export function referenceCandidate(options: ReferenceOptions = {}): Candidate {
  const guardArgs = (options.disabledGuards ?? []).flatMap((name) => ['--disable-guard', name]);
  return {
    info: {
      name: options.disabledGuards?.length ? `reference-without-${options.disabledGuards.join('+')}` : 'reference',
      version: '0.1.0',
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: Object.keys(FEATURES) as Feature[],
      upstreams: ['command', 'url'],
      servers: 'many',
      configFlaws: true,
      agentTransports: ['stdio', 'http'],
      // The reference serves both revisions to an agent (src/, issue 33).
      revisions: REVISIONS,
    },
    async pin(spec) {
      const config = await writeConfig(spec);
      const pinArgs = [brokerEntry, 'pin', '--config', config, '--out', files(spec).manifest, ...guardArgs];
      const status = await runToExit(...throughPrefix(spec.launchPrefix, process.execPath, pinArgs), {
        cwd: spec.workdir,
        env: brokerEnv(spec),
        stderrFile: files(spec).pinLog,
        timeoutMs: spec.timeoutMs,
      });
      const ok = status.code === 0 && existsSync(files(spec).manifest);
      if (status.timedOut) return { ok: false, detail: `pin did not finish within ${spec.timeoutMs} ms`, timedOut: true };
      return { ok, detail: `pin exited with ${status.code ?? status.signal}` };
    },
    async start(spec) {
      const { config, pinLog, report, state, audit } = files(spec);
      await writeConfig(spec);
      const pinned = files(spec).manifest;
      if (existsSync(pinned)) await chmod(pinned, spec.flaw === 'manifest-file-writable' ? SHARED_MODE : PRIVATE_MODE);
      const manifest = await manifestFor(spec, pinned);
      await mkdir(state, { recursive: true });
      // An operator who ran pin and saw it refused may still serve knowingly with nothing pinned;
      // one who never ran pin has no manifest to give, which the broker must refuse (CFG-4).
      const manifestArgs = existsSync(manifest) ? ['--manifest', manifest] : existsSync(pinLog) ? ['--unpinned'] : [];
      const agentArgs = spec.agent ? ['--agent', spec.agent] : [];
      const serveArgs = [brokerEntry, 'serve', '--config', config, ...manifestArgs, '--report', report, '--state-dir', state, '--audit', audit, ...agentArgs, ...guardArgs];
      const options = { cwd: spec.workdir, env: brokerEnv(spec), stderrFile: files(spec).serveStderr };
      if (spec.agentHttp === undefined) return spawnChannel(...throughPrefix(spec.launchPrefix, process.execPath, serveArgs), options);
      // Only the port: where it binds is the broker's own default, loopback (FDR-1).
      const origins = (spec.operator.allowed_origins ?? []).flatMap((origin) => ['--allow-origin', origin]);
      const listen = (port: number) => [...serveArgs, '--listen', String(port), ...origins];
      if (!spec.operator.front_door_credential) return startHttpAgent(spec, listen, options);
      // The operator's credential for the front door: drawn for this start, given to the broker
      // in its environment only, and to the harness as the credential its clients present.
      const token = randomBytes(FRONT_DOOR_TOKEN_BYTES).toString('base64url');
      return startHttpAgent(spec, listen, { ...options, env: { ...options.env, [FRONT_DOOR_TOKEN_VARIABLE]: token } }, { header: 'Authorization', value: `Bearer ${token}` });
    },
    async loadReport(spec) {
      const path = files(spec).report;
      if (!existsSync(path)) return undefined;
      const report = JSON.parse(await readFile(path, 'utf8')) as ReferenceLoadReport;
      const neutral: NeutralLoadReport = {
        registered: report.registered.map(({ tool, name, effect }) => ({ tool, name, effect })),
        // The guard that refused is part of the reason an operator reads.
        refused: report.refused.map(({ tool, guard, reason }) => ({ tool, reason: `${guard}: ${reason}` })),
        unpinned: report.unpinned,
        unclassified: report.unclassified,
        hint_mismatch_overridden: report.registered.filter((entry) => entry.hint_mismatch_overridden).map((entry) => entry.tool),
      };
      return neutral;
    },
    async startRefusal(spec, exit) {
      // A refusal exits with one of its codes, and its first diagnostic line says what was
      // refused and why. Any other exit refused nothing.
      if (exit.code === null || !EXIT_REFUSALS.has(exit.code) || !existsSync(files(spec).serveStderr)) return undefined;
      const lines = (await readFile(files(spec).serveStderr, 'utf8')).split('\n');
      return lines.find((line) => line.startsWith(DIAGNOSTIC_PREFIX))?.slice(DIAGNOSTIC_PREFIX.length);
    },
    async approve(spec, { requestId, decision, expiresAt }) {
      // The operator's channel is a file the agent connection cannot write.
      const dir = join(files(spec).state, 'decisions');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${requestId}.json`), JSON.stringify({ decision, ...(expiresAt ? { expires_at: expiresAt } : {}) }));
    },
    async auditLines(spec) {
      const path = files(spec).audit;
      if (!existsSync(path)) return [];
      return (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    },
    async audit(spec) {
      const lines = (await this.auditLines?.(spec)) ?? [];
      // The reference broker's records are a superset of the neutral form; its own fields stay out.
      return lines.map((line) => {
        const { decision, tool, tool_exists, code, agent, operation, validation, grant, dispatched, receipt, contract, source_version } =
          JSON.parse(line) as NeutralAuditRecord;
        return {
          decision,
          tool,
          ...(tool_exists === null || tool_exists === undefined ? {} : { tool_exists }),
          code,
          agent,
          operation,
          validation,
          grant,
          dispatched,
          receipt,
          contract,
          source_version,
        };
      });
    },
  };
}
