import { rmSync } from 'node:fs';
import { cp, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { dir as tmpDir } from 'tmp-promise';
import type { Candidate, SessionSpec, UpstreamCommand, UpstreamUrl } from '../candidates/types.js';
import { hooksOf } from '../candidates/hooks.js';
import { unservedRevision } from '../candidates/served-revisions.js';
import { hooksNeeded } from '../expect/plan.js';
import { Ledger, serverPids } from '../observe/ledger.js';
import { Canary } from '../observe/canary.js';
import { operatorSecrets, SecretWatch } from '../observe/secrets.js';
import { hold } from '../observe/containment.js';
import { Enclosure, type EnclosureSpec } from '../observe/enclosure.js';
import { killAll, survivorsAfter } from '../observe/processes.js';
import { kitCaFile } from '../paths.js';
import type { OperatorConfig, Scenario } from '../scenario/types.js';
import { revisionKnobs } from '../scenario/variants.js';
import { BASE_REVISION } from '../agent/revisions.js';
import { HttpServer } from './http-server.js';
import { judge } from './judge.js';
import { DEFAULT_SERVER_URL, fillPorts, kitCommand, startMembers, type Members } from './members.js';
import { CandidateUnresponsive, failureOf, UnsupportedEnvironment, type CaseResult } from './outcome.js';
import { BudgetSpent, spentReason, unlessSpent } from './budget.js';
import { ScenarioSession } from './steps.js';
import { withUrlOpeners } from '../observe/url-openers.js';
import { noTranscript } from './transcript.js';

export interface RunOptions {
  /** Bound on each step, and on each adapter operation. */
  stepTimeoutMs: number;
  /**
   * Where to keep each scenario's private directory (the ledger, the candidate's files and its
   * stderr) after the run, one folder per scenario id, for debugging; removed otherwise.
   */
  keepWorkdir?: string;
  /**
   * Fires when the scenario's or the run's budget is spent (harness/run/budget.ts): no further
   * step starts, the step running is cut short by closing the candidate's channel, and the case
   * ends as an `error` naming the budget (a check already failed stays a failure).
   */
  signal?: AbortSignal;
}

/**
 * How long the harness waits on a candidate for one step (or one adapter request) before the case
 * is an `error`: a bound on waiting, never a verdict. It is three times the reference broker's own
 * deadlines (connect_timeout_ms and call_timeout_ms, 10 s by default), so that a broker's refusal
 * at its own deadline is observed rather than raced: at 10 s, on a loaded machine the harness's
 * wait ran out first (test/guards.test.ts "without listing-bounds" was an error, not the fail its
 * ledger shows). A working broker takes well under a second a step; only a hung one costs more.
 */
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/**
 * What the operator's environment holds besides the harness's own: a credential and a proxy
 * setting that no server was given. Scenarios check the ledger's launch records for them. The
 * proxy names the discard port on loopback, so nothing could ever be sent through it.
 */
export const OPERATOR_ENV = {
  GAUNTLET_OPERATOR_TOKEN: 'operator-token-not-for-servers',
  HTTPS_PROXY: 'http://127.0.0.1:9',
} as const;

/**
 * The command line that starts a hostile server. The scenario's knobs belong to its own server;
 * another catalogue server (a pin step's) runs as its preset, speaking the case's revision.
 */
function upstreamFor(scenario: Scenario, catalogue: string, ledger: string, control: string, canary: Canary): UpstreamCommand {
  return kitCommand(catalogue, catalogue === scenario.server.catalogue ? (scenario.server.knobs ?? {}) : revisionKnobs(scenario.revision ?? BASE_REVISION), ledger, control, canary);
}

/**
 * The operator's URL and opt-in with their placeholders filled in: `{port}` is the scenario's
 * HTTP server, `{canary_port}` the canary (docs/scenario-format.md).
 */
function reachedByUrl(operator: OperatorConfig, id: string, server: HttpServer, canary: Canary): { upstream: UpstreamUrl; operator: OperatorConfig } {
  const fill = (text: string): string => fillPorts(text, server.port, canary);
  const origin = operator.allow_private_origin;
  return {
    upstream: { id, url: fill(operator.server_url ?? DEFAULT_SERVER_URL) },
    operator: { ...operator, ...(origin === undefined ? {} : { allow_private_origin: fill(origin) }) },
  };
}

const LOOPBACK = '127.0.0.1';

/** Every address the scenario's HTTP server listens on. */
const listening = (scenario: Scenario): string[] => [scenario.server.listen ?? LOOPBACK].flat();

/** A server listening anywhere but loopback, or names to resolve, need an enclosure. */
function needsEnclosure(scenario: Scenario): boolean {
  const { hosts, resolves } = scenario.server;
  return listening(scenario).some((address) => address !== LOOPBACK) || hosts !== undefined || resolves !== undefined;
}

/** The enclosure's loopback carries the listening addresses and every address a name resolves to. */
function enclosureOf(scenario: Scenario): EnclosureSpec {
  const { hosts = {}, resolves } = scenario.server;
  const served = Object.values(resolves ?? {}).flat();
  return { addresses: [...listening(scenario), ...Object.values(hosts), ...served], hosts, ...(resolves === undefined ? {} : { resolves }) };
}

/** What an HTTP scenario's server runs in and as: both absent for a server the candidate starts. */
interface ServerNetwork {
  enclosure?: Enclosure;
  http?: HttpServer;
}

/** Makes the enclosure the scenario needs, and starts its HTTP server; on failure, neither is left. */
async function serverNetwork(scenario: Scenario, command: UpstreamCommand, ledger: Ledger, workdir: string, timeoutMs: number): Promise<ServerNetwork> {
  const enclosure = needsEnclosure(scenario) ? await Enclosure.create(enclosureOf(scenario), workdir, timeoutMs) : undefined;
  if (scenario.server.transport !== 'http') return { enclosure };
  try {
    return { enclosure, http: await HttpServer.start(command, ledger, timeoutMs, listening(scenario), enclosure?.prefix) };
  } catch (error) {
    await enclosure?.close();
    throw error;
  }
}

/** Whether some server of the scenario the harness runs over HTTP serves HTTPS. */
const servesTls = (scenario: Scenario): boolean =>
  Object.values(scenario.servers ?? { server: scenario.server }).some((server) => server.transport === 'http' && server.knobs?.http_tls !== undefined);

/** Copies a scenario's directory for debugging: its regular files and folders, never a socket or pipe. */
async function keep(from: string, to: string): Promise<void> {
  const plain = async (source: string): Promise<boolean> => {
    const kind = await lstat(source);
    return kind.isFile() || kind.isDirectory();
  };
  await cp(from, to, { recursive: true, force: true, filter: plain });
}

/**
 * Runs one scenario against one candidate in a private directory, then judges it on what the
 * harness observed on both sides. Whatever happens, every process it started is gone afterwards.
 */
export async function runScenario(scenario: Scenario, candidate: Candidate, options: RunOptions): Promise<CaseResult> {
  const started = Date.now();
  const base = caseHeader(scenario, candidate);
  try {
    return await judgedRun(scenario, candidate, options, base, started);
  } catch (error) {
    // Whatever the harness or an adapter throws (an adapter's close, a cleanup) is this scenario's
    // error, named in the report with its cause, and the run goes on to the next scenario.
    return unjudged(base, started, 'error', `harness or adapter error: ${(error as Error).stack ?? String(error)}`);
  }
}

/** What a case result says of its scenario and of whether the candidate claims what it tests. */
export function caseHeader(scenario: Scenario, candidate: Candidate) {
  return {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    kind: scenario.kind,
    level: scenario.level,
    requirements: scenario.requirements,
    ...(scenario.control ? { control: scenario.control } : {}),
    revision: scenario.revision ?? BASE_REVISION,
    ...(scenario.legacy === true ? { legacy: true as const } : {}),
    claims: scenario.claims,
    claimed: scenario.claims.every((claim) => (candidate.info.claims as readonly string[]).includes(claim)),
    ...adapterShare(scenario, candidate),
  };
}

/** The protections the adapter declares it provides itself that the scenario tests (by claim tag or requirement id), when any. */
function adapterShare(scenario: Scenario, candidate: Candidate): { by_adapter?: string[] } {
  const tested = new Set<string>([...scenario.claims, ...scenario.requirements]);
  const share = [...new Set((candidate.info.adapterProvides ?? []).map((entry) => entry.protection).filter((protection) => tested.has(protection)))];
  return share.length === 0 ? {} : { by_adapter: share };
}

type CaseHeader = ReturnType<typeof caseHeader>;

/** A case that ended before anything of it could be judged. */
function unjudged(base: CaseHeader, started: number, outcome: 'unsupported' | 'unsupported-environment' | 'error', reason: string): CaseResult {
  return { ...base, outcome, duration_ms: Date.now() - started, findings: [], unchecked: [], notes: [], transcript: noTranscript(), reason };
}

/**
 * Runs every release, even after one throws, then throws the first failure: a server that will
 * not stop must not leave the enclosure, the canary and the workdir behind too.
 */
async function releaseAll(releases: ReadonlyArray<() => Promise<void>>): Promise<void> {
  const failures: unknown[] = [];
  for (const release of releases) await release().catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw failures[0];
}

async function judgedRun(scenario: Scenario, candidate: Candidate, options: RunOptions, base: CaseHeader, started: number): Promise<CaseResult> {
  const unserved = unservedRevision(candidate.info, scenario.revision ?? BASE_REVISION);
  if (unserved !== undefined) return { ...unjudged(base, started, 'unsupported', unserved), duration_ms: 0 };
  const hooks = hooksOf(candidate);
  const missing = hooksNeeded(scenario, hooks);
  if (missing.length > 0) {
    return { ...unjudged(base, started, 'unsupported', `the candidate's adapter lacks the ${missing.join(', ')} hook(s) the scenario cannot run without`), duration_ms: 0 };
  }

  const created = await tmpDir({ prefix: 'gauntlet-', unsafeCleanup: true });
  // Removed at exit if the run never gets to remove it (an interrupt, a crash of the harness).
  const unhold = hold('folder', () => rmSync(created.path, { recursive: true, force: true }));
  const workdir = { path: created.path, cleanup: () => created.cleanup().then(unhold) };
  const ledger = new Ledger(join(workdir.path, 'ledger.jsonl'));
  const control = join(workdir.path, 'phase');
  const canary = await Canary.start();
  const command = upstreamFor(scenario, scenario.server.catalogue, ledger.path, control, canary);
  let network: ServerNetwork = {};
  // Several servers are each started as their own (members.ts); one is started here.
  let members: Members | undefined;
  try {
    if (scenario.servers === undefined) network = await serverNetwork(scenario, command, ledger, workdir.path, options.stepTimeoutMs);
    else members = await startMembers(scenario, ledger, control, canary, options.stepTimeoutMs);
  } catch (error) {
    await releaseAll([() => canary.stop(), () => workdir.cleanup()]);
    // A server that cannot be started (an address no enclosure can hold, a server refusing its
    // knobs) is this scenario's error, named, and the run goes on.
    if (!(error instanceof UnsupportedEnvironment)) return unjudged(base, started, 'error', `the scenario could not be set up: ${(error as Error).message}`);
    return unjudged(base, started, 'unsupported-environment', error.message);
  }
  const { http, enclosure } = network;
  const reached =
    members !== undefined
      ? { upstream: members.servers[0]!.upstream, servers: members.servers, operator: scenario.operator }
      : http === undefined
        ? { upstream: command, operator: scenario.operator }
        : reachedByUrl(scenario.operator, command.id, http, canary);
  const stopServers = async () => {
    await http?.stop();
    await Promise.all(members?.http.map((running) => running.stop()) ?? []);
  };
  const spec: SessionSpec = {
    workdir: workdir.path,
    ...reached,
    timeoutMs: options.stepTimeoutMs,
    // Every program it could show the user a page with only writes its arguments to the ledger.
    env: await withUrlOpeners({ ...process.env, ...OPERATOR_ENV }, join(workdir.path, 'url-openers'), ledger.path),
    ...(enclosure === undefined ? {} : { launchPrefix: enclosure.prefix }),
    // The operator of an HTTPS server trusts whoever issued its certificate.
    ...(servesTls(scenario) ? { trustedCa: kitCaFile } : {}),
    // The agent's own credential to the broker travels with every request it makes (docs/front-door.md).
    ...(scenario.agent === undefined ? {} : { agentHttp: { headers: scenario.agent.token === undefined ? {} : { authorization: `Bearer ${scenario.agent.token}` } } }),
  };
  // An HTTP server is one the harness runs: a pin step names the same one.
  const upstreamOf = (catalogue: string) => (http === undefined ? upstreamFor(scenario, catalogue, ledger.path, control, canary) : reached.upstream);
  const session = new ScenarioSession(candidate, hooks, spec, ledger, control, options.stepTimeoutMs, upstreamOf);
  session.clientSide = scenario.client;
  session.revision = scenario.revision ?? BASE_REVISION;
  session.secrets = new SecretWatch([OPERATOR_ENV.GAUNTLET_OPERATOR_TOKEN, ...operatorSecrets(scenario.operator)]);
  if (candidate.info.unapplied?.length) session.notes.push(`the adapter cannot apply: ${candidate.info.unapplied.join('; ')}`);
  let reason: string | undefined;
  let environmentLacks = false;
  const failed = (error: unknown) => {
    environmentLacks = error instanceof UnsupportedEnvironment;
    reason ??= error instanceof CandidateUnresponsive || error instanceof BudgetSpent || environmentLacks ? (error as Error).message : `harness or adapter error: ${(error as Error).stack ?? String(error)}`;
  };
  try {
    for (const [index, step] of scenario.steps.entries()) {
      // Each pin and start is a fresh candidate process, as a real rebinding name's short TTL would
      // make every fresh lookup: the enclosure's DNS gives its first answer again.
      if (options.signal?.aborted) throw spentReason(options.signal);
      if ('pin' in step || 'start' in step) await enclosure?.restartResolver();
      const judged = session.steps.length;
      await unlessSpent(session.run(step, index), options.signal, () => session.channel?.close()).catch((error: unknown) => {
        // What the step cut short recorded is what the harness's closing made it see: not judged.
        if (error instanceof BudgetSpent) session.steps.length = judged;
        throw error;
      });
    }
  } catch (error) {
    failed(error);
  }
  try {
    await session.channel?.close().catch(failed);
    session.closeWindow();
    await stopServers();
    // The scenario's own expectations once the candidate has closed; a step that errored leaves
    // the steps before it to be judged, and those whose observations were taken.
    if (reason === undefined) await session.recordEnd(scenario.expect, { requests: canary.requests, records: canary.records }).catch(failed);
    if (reason !== undefined) session.recordEndUnfinished({ requests: canary.requests, records: canary.records });
    // Read the ledger once, and judge everything on that reading.
    const records = ledger.read();
    const { findings, unchecked, notes } = judge(session.steps, { records, kind: scenario.kind, spec }, hooks);
    session.notes.push(...notes);
    const leftovers = await survivorsAfter(serverPids(records), 1_000);
    if (leftovers.length > 0) {
      killAll(leftovers);
      session.notes.push(`the harness killed ${leftovers.length} server process(es) still alive after the candidate closed`);
    }
    // A check that already failed stays a failure whatever ended the run after it.
    const outcome = findings.length > 0 ? 'fail' : environmentLacks ? 'unsupported-environment' : reason !== undefined ? 'error' : 'pass';
    return {
      ...base,
      outcome,
      ...(outcome === 'fail' ? { failure: failureOf(scenario.kind, findings) } : {}),
      duration_ms: Date.now() - started,
      findings,
      unchecked,
      notes: session.notes,
      transcript: session.transcript.finish(records, outcome === 'fail' || outcome === 'error' ? 'failing' : 'passing'),
      ...(reason ? { reason } : {}),
      ...(outcome === 'fail' || outcome === 'error' ? { stderr_tail: session.lastChannel?.stderrTail?.() ?? '' } : {}),
    };
  } finally {
    await releaseAll([
      stopServers,
      async () => enclosure?.close(),
      () => canary.stop(),
      async () => (options.keepWorkdir === undefined ? undefined : keep(workdir.path, join(options.keepWorkdir, scenario.id))),
      () => workdir.cleanup(),
    ]);
  }
}
