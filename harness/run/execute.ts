import { join } from 'node:path';
import { dir as tmpDir } from 'tmp-promise';
import type { Candidate, SessionSpec, UpstreamCommand, UpstreamUrl } from '../candidates/types.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';
import { argumentMismatches, receivedArguments } from '../observe/arguments.js';
import { callsTo, connections, launches, Ledger, listRequests, maxListRequestsPerLaunch, noticesOf, serverPids } from '../observe/ledger.js';
import { Canary } from '../observe/canary.js';
import { Enclosure, type EnclosureSpec } from '../observe/enclosure.js';
import { killAll, survivorsAfter } from '../observe/processes.js';
import { kitCaFile, serverEntry } from '../paths.js';
import type { OperatorConfig, Scenario, ScenarioExpectation } from '../scenario/types.js';
import { auditFindings, chainFindings } from './audit.js';
import { HttpServer } from './http-server.js';
import { reportFindings, toolsListedLast } from './load-report.js';
import { CandidateUnresponsive, UnsupportedEnvironment, type CaseResult, type Finding } from './outcome.js';
import { ScenarioSession } from './steps.js';

export interface RunOptions {
  /** Bound on each step, and on each adapter operation. */
  stepTimeoutMs: number;
}

export const DEFAULT_STEP_TIMEOUT_MS = 10_000;

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
 * The command line that starts a hostile server, with the scenario's ledger and phase file. The
 * scenario's knobs belong to its own server; another catalogue server (a pin step's) runs as
 * its preset.
 */
function upstreamFor(scenario: Scenario, catalogue: string, ledger: string, control: string, canary: Canary): UpstreamCommand {
  const own = catalogue === scenario.server.catalogue ? (scenario.server.knobs ?? {}) : {};
  const knobs = Object.entries(own).map(([knob, value]) => `${knob}=${String(value)}`);
  return {
    id: catalogue.replace(/[^a-z0-9_]/g, '_'),
    command: process.execPath,
    args: [serverEntry, catalogue, '--ledger', ledger, '--control', control, `canary_port=${canary.port}`, ...knobs],
  };
}

/** Where an HTTP server is named when the operator does not say: the harness's own listener. */
const DEFAULT_SERVER_URL = 'http://127.0.0.1:{port}/mcp';

/**
 * The operator's URL and opt-in with their placeholders filled in: `{port}` is the scenario's
 * HTTP server, `{canary_port}` the canary (docs/scenario-format.md).
 */
function reachedByUrl(operator: OperatorConfig, id: string, server: HttpServer, canary: Canary): { upstream: UpstreamUrl; operator: OperatorConfig } {
  const fill = (text: string): string => text.replaceAll('{port}', String(server.port)).replaceAll('{canary_port}', String(canary.port));
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

function ledgerFindings(expect: ScenarioExpectation['ledger'], entries: readonly LedgerRecord[]): Finding[] {
  if (!expect) return [];
  const findings: Finding[] = [];
  const most = maxListRequestsPerLaunch(entries);
  if (expect.list_requests_per_launch_max !== undefined && most > expect.list_requests_per_launch_max) {
    findings.push({ step: 'end', expectation: 'bounded listing', expected: `at most ${expect.list_requests_per_launch_max} tools/list per server process`, observed: most });
  }
  const total = listRequests(entries).length;
  if (expect.list_requests_min !== undefined && total < expect.list_requests_min) {
    findings.push({ step: 'end', expectation: 'server listed', expected: `at least ${expect.list_requests_min} tools/list`, observed: total });
  }
  for (const [tool, count] of Object.entries(expect.calls ?? {})) {
    const received = callsTo(entries, tool).length;
    if (received !== count) findings.push({ step: 'end', expectation: `server receives ${tool}`, expected: `${count} tools/call in all`, observed: received });
  }
  for (const [method, count] of Object.entries(expect.notices ?? {})) {
    const sent = noticesOf(entries, method).length;
    if (sent !== count) findings.push({ step: 'end', expectation: `server sends ${method}`, expected: `${count} in all`, observed: sent });
  }
  for (const [tool, wanted] of Object.entries(expect.call_arguments ?? {})) {
    const received = callsTo(entries, tool);
    if (received.length === 0) findings.push({ step: 'end', expectation: `arguments of ${tool}`, expected: wanted, observed: 'no call received' });
    for (const call of received) {
      for (const { name, expected, observed } of argumentMismatches(receivedArguments(call.raw), wanted)) {
        findings.push({ step: 'end', expectation: `${tool} receives ${name}`, expected, observed });
      }
    }
  }
  for (const [address, count] of Object.entries(expect.connections_to ?? {})) {
    const reached = connections(entries).filter((connection) => connection.local === address).length;
    if (reached !== count) findings.push({ step: 'end', expectation: `connections to ${address}`, expected: `${count} in all`, observed: reached });
  }
  const started = launches(entries).length;
  if (expect.launches_min !== undefined && started < expect.launches_min) {
    findings.push({ step: 'end', expectation: 'server launched', expected: `at least ${expect.launches_min} launches`, observed: started });
  }
  return findings;
}

/** What each server launch received in its environment, from the ledger's launch records. */
function environmentFindings(expect: ScenarioExpectation['server_env'], records: readonly LedgerRecord[]): Finding[] {
  if (!expect) return [];
  const findings: Finding[] = [];
  const started = launches(records);
  if (started.length === 0) findings.push({ step: 'end', expectation: 'server launched', expected: 'a launch to inspect', observed: 'none' });
  for (const launch of started) {
    for (const name of expect.absent ?? []) {
      if (name in launch.env) findings.push({ step: 'end', expectation: `server never receives ${name}`, expected: 'absent', observed: `present in pid ${launch.pid}` });
    }
    for (const name of expect.present ?? []) {
      if (!(name in launch.env)) findings.push({ step: 'end', expectation: `server receives ${name}`, expected: 'present', observed: `absent in pid ${launch.pid}` });
    }
    for (const [name, value] of Object.entries(expect.equals ?? {})) {
      const got = launch.env[name];
      if (got !== value) findings.push({ step: 'end', expectation: `server receives ${name} as written`, expected: value, observed: got === undefined ? `absent in pid ${launch.pid}` : got });
    }
    for (const text of expect.values_exclude ?? []) {
      const holders = Object.entries(launch.env).filter(([, value]) => typeof value === 'string' && value.includes(text)).map(([name]) => name);
      if (holders.length > 0) findings.push({ step: 'end', expectation: `server never receives ${JSON.stringify(text)}`, expected: 'in no variable', observed: `in ${holders.join(', ')} of pid ${launch.pid}` });
    }
  }
  return findings;
}

/** What headers the server's HTTP requests came with, from the ledger's request records. */
function headerFindings(expect: ScenarioExpectation['server_headers'], records: readonly LedgerRecord[]): Finding[] {
  if (!expect) return [];
  const findings: Finding[] = [];
  const requests = records.filter((record) => record.ev === 'request');
  // Headers a request must carry need a request to carry them; absent ones hold of none too.
  if (expect.equals !== undefined && requests.length === 0) {
    findings.push({ step: 'end', expectation: 'server receives requests', expected: 'an HTTP request to inspect', observed: 'none' });
  }
  for (const request of requests) {
    for (const name of expect.absent ?? []) {
      const value = request.headers[name];
      if (value !== undefined) findings.push({ step: 'end', expectation: `server never receives ${name}`, expected: 'absent', observed: `${name}: ${value}` });
    }
    for (const text of expect.values_exclude ?? []) {
      const holders = Object.entries(request.headers).filter(([, value]) => value.includes(text)).map(([name]) => name);
      if (holders.length > 0) findings.push({ step: 'end', expectation: `server never receives ${JSON.stringify(text)}`, expected: 'in no header', observed: `in ${holders.join(', ')}` });
    }
    for (const [name, value] of Object.entries(expect.equals ?? {})) {
      const got = request.headers[name];
      if (got !== value) findings.push({ step: 'end', expectation: `server receives ${name}`, expected: value, observed: got ?? '(absent)' });
    }
  }
  return findings;
}

async function loadReportFindings(session: ScenarioSession, expect: ScenarioExpectation['load_report'], records: readonly LedgerRecord[]): Promise<Finding[]> {
  if (!expect) return [];
  const { candidate } = session;
  if (!candidate.info.features.includes('load-report') || !candidate.loadReport) {
    session.notes.push('load-report expectations not checked: the candidate does not declare a load report');
    return [];
  }
  const report = await candidate.loadReport(session.spec);
  if (!report) return [{ step: 'end', expectation: 'load report', expected: 'a load report', observed: 'none written' }];
  return reportFindings(report, expect, toolsListedLast(records));
}

/**
 * Runs one scenario against one candidate in a private directory, then judges it on what the
 * harness observed on both sides. Whatever happens, every process it started is gone afterwards.
 */
export async function runScenario(scenario: Scenario, candidate: Candidate, options: RunOptions): Promise<CaseResult> {
  const started = Date.now();
  const base = {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    kind: scenario.kind,
    level: scenario.level,
    requirements: scenario.requirements,
    ...(scenario.control ? { control: scenario.control } : {}),
    features: scenario.features,
  };
  const missing = scenario.features.filter((feature) => !(candidate.info.features as readonly string[]).includes(feature));
  if (missing.length > 0) {
    return { ...base, outcome: 'unsupported', duration_ms: 0, findings: [], notes: [], reason: `the candidate does not declare ${missing.join(', ')}` };
  }

  const workdir = await tmpDir({ prefix: 'gauntlet-', unsafeCleanup: true });
  const ledger = new Ledger(join(workdir.path, 'ledger.jsonl'));
  const control = join(workdir.path, 'phase');
  const canary = await Canary.start();
  const command = upstreamFor(scenario, scenario.server.catalogue, ledger.path, control, canary);
  let network: ServerNetwork;
  try {
    network = await serverNetwork(scenario, command, ledger, workdir.path, options.stepTimeoutMs);
  } catch (error) {
    await canary.stop();
    await workdir.cleanup();
    if (!(error instanceof UnsupportedEnvironment)) throw error;
    return { ...base, outcome: 'unsupported-environment', duration_ms: Date.now() - started, findings: [], notes: [], reason: error.message };
  }
  const { http, enclosure } = network;
  const reached = http === undefined ? { upstream: command, operator: scenario.operator } : reachedByUrl(scenario.operator, command.id, http, canary);
  const spec: SessionSpec = {
    workdir: workdir.path,
    ...reached,
    timeoutMs: options.stepTimeoutMs,
    env: { ...process.env, ...OPERATOR_ENV },
    ...(enclosure === undefined ? {} : { launchPrefix: enclosure.prefix }),
    // The operator of an HTTPS server trusts whoever issued its certificate.
    ...(http !== undefined && scenario.server.knobs?.http_tls !== undefined ? { trustedCa: kitCaFile } : {}),
  };
  // An HTTP server is one the harness runs: a pin step names the same one.
  const upstreamOf = (catalogue: string) => (http === undefined ? upstreamFor(scenario, catalogue, ledger.path, control, canary) : reached.upstream);
  const session = new ScenarioSession(candidate, spec, ledger, control, options.stepTimeoutMs, upstreamOf);
  let reason: string | undefined;
  let environmentLacks = false;
  try {
    for (const [index, step] of scenario.steps.entries()) {
      // Each pin and start is a fresh candidate process, as a real rebinding name's short TTL would
      // make every fresh lookup: the enclosure's DNS gives its first answer again.
      if ('pin' in step || 'start' in step) await enclosure?.restartResolver();
      await session.run(step, index);
    }
  } catch (error) {
    environmentLacks = error instanceof UnsupportedEnvironment;
    reason =
      error instanceof CandidateUnresponsive || environmentLacks ? (error as Error).message : `harness or adapter error: ${(error as Error).stack ?? String(error)}`;
  }
  try {
    await session.channel?.close();
    await http?.stop();
    // The candidate has closed: read the ledger once, and judge everything on that reading.
    const records = ledger.read();
    const findings = [...session.findings];
    if (reason === undefined) {
      findings.push(...session.callFindings(records));
      findings.push(...ledgerFindings(scenario.expect?.ledger, records));
      findings.push(...environmentFindings(scenario.expect?.server_env, records));
      findings.push(...headerFindings(scenario.expect?.server_headers, records));
      findings.push(...(await loadReportFindings(session, scenario.expect?.load_report, records)));
      findings.push(...(await auditFindings(session, scenario.expect, records)));
      findings.push(...(await chainFindings(session, scenario.expect)));
      const allowed = scenario.expect?.canary_requests;
      if (allowed !== undefined && canary.requests > allowed) {
        findings.push({ step: 'end', expectation: 'nothing fetched', expected: `at most ${allowed} requests to the canary`, observed: canary.requests });
      }
    }
    const leftovers = await survivorsAfter(serverPids(records), 1_000);
    if (leftovers.length > 0) {
      killAll(leftovers);
      session.notes.push(`the harness killed ${leftovers.length} server process(es) still alive after the candidate closed`);
    }
    const outcome = environmentLacks ? 'unsupported-environment' : reason !== undefined ? 'error' : findings.length > 0 ? 'fail' : 'pass';
    return { ...base, outcome, duration_ms: Date.now() - started, findings, notes: session.notes, ...(reason ? { reason } : {}) };
  } finally {
    await http?.stop();
    await enclosure?.close();
    await canary.stop();
    await workdir.cleanup();
  }
}
