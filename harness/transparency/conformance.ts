// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json) as
// a transparency suite: its server scenarios run against the conformance server
// (conformance-server.ts) direct, then through a candidate's HTTP front door, in the same run.
// Each check the suite makes is one finding: preserved when it passes both ways, broken when it
// passes direct and not through the candidate, not-applicable when it does not pass direct (the
// candidate cannot be blamed for it). The suite's own verdicts are read from the checks.json it
// writes for each scenario, never from its coloured console output.

import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import type { OperatorConfig } from '../scenario/types.js';
import type { Candidate, SessionSpec } from '../candidates/types.js';
import { packageRoot } from '../paths.js';
import { startConformanceServer } from './conformance-server.js';
import type { TransparencyResult, TransparencySuite } from './types.js';

/** A check as the suite writes it in checks.json. */
export interface ConformanceCheck {
  scenario: string;
  id: string;
  description: string;
  status: string;
  errorMessage?: string;
  /** The ids of what the check cites (MCP sections, SEPs). */
  specReferences?: string[];
}

export interface ConformanceOutcome {
  /** Why the suite could not be run through the candidate at all; findings are then empty. */
  unsupported?: string;
  findings: TransparencyResult[];
  /** Wall-clock milliseconds of the suite's run direct (0 when it was given) and through the candidate. */
  durations: { directMs: number; candidateMs?: number };
}

/** Only these are verdicts; INFO entries are the suite's log of what it sent and received. */
const JUDGED = new Set(['SUCCESS', 'FAILURE', 'WARNING']);

/**
 * The shim that gives Node 20 `fs.globSync` (node20-glob-shim.mjs). It is not compiled: compiled,
 * this module runs from dist/, and the shim stays beside its source.
 */
const SHIM_FILE = join(packageRoot, 'harness', 'transparency', 'node20-glob-shim.mjs');

/** Which installed release of the suite runs, and which of its server scenarios. */
export interface SuiteRelease {
  /** The package it is installed as (a dev dependency). */
  readonly installedAs: string;
  /** What selects its server scenarios on its command line. */
  readonly scenarios: readonly string[];
}

/** The release pinned in package.json, its active server scenarios: the transparency suite's. */
export const PINNED_RELEASE: SuiteRelease = { installedAs: '@modelcontextprotocol/conformance', scenarios: ['--suite', 'active'] };

/** The suite's command-line entry, from its installed package. */
function suiteEntry(installedAs = PINNED_RELEASE.installedAs): string {
  const manifest = createRequire(import.meta.url).resolve(`${installedAs}/package.json`);
  return join(dirname(manifest), 'dist', 'index.js');
}

/** A scenario's result folder is `server-<scenario>-<ISO time with - for : and .>`. */
const RESULT_FOLDER = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Runs the suite's server scenarios (by default the pinned release's active ones) against `url`
 * and returns every check it wrote, each with its scenario. Bounded by `timeoutMs` over the whole
 * suite; the suite's exit code (1 when any check failed) is not an error, no checks at all is.
 */
export async function runConformanceSuite(url: string, timeoutMs: number, release: SuiteRelease = PINNED_RELEASE): Promise<ConformanceCheck[]> {
  const out = await mkdtemp(join(tmpdir(), 'gauntlet-conformance-'));
  try {
    const run = await execa(process.execPath, ['--import', SHIM_FILE, suiteEntry(release.installedAs), 'server', '--url', url, ...release.scenarios, '-o', out], {
      cwd: out,
      reject: false,
      timeout: timeoutMs,
      forceKillAfterDelay: 1000,
      stdin: 'ignore',
      env: { NO_COLOR: '1' },
      extendEnv: true,
    });
    const checks: ConformanceCheck[] = [];
    for (const folder of (await readdir(out)).sort()) {
      const scenario = RESULT_FOLDER.exec(folder)?.[1];
      // A scenario cut off by the timeout has its folder and no checks: its checks were not made.
      if (scenario === undefined || !existsSync(join(out, folder, 'checks.json'))) continue;
      const written = JSON.parse(await readFile(join(out, folder, 'checks.json'), 'utf8')) as Array<Omit<ConformanceCheck, 'scenario' | 'specReferences'> & { specReferences?: Array<{ id: string }> }>;
      for (const { id, description, status, errorMessage, specReferences } of written) {
        checks.push({ scenario, id, description, status, ...(errorMessage === undefined ? {} : { errorMessage }), ...(specReferences === undefined ? {} : { specReferences: specReferences.map((reference) => reference.id) }) });
      }
    }
    if (checks.length === 0) {
      const why = run.timedOut ? `it did not finish within ${timeoutMs} ms` : `it exited with ${run.exitCode ?? run.signal}`;
      throw new Error(`the conformance suite wrote no checks against ${url}: ${why}; stderr: ${String(run.stderr).slice(-2000)}`);
    }
    return checks;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/**
 * The checks of the given statuses, each under its finding id (a repeated id in one scenario
 * numbered from its second).
 */
function byFindingId(checks: readonly ConformanceCheck[], statuses: ReadonlySet<string>): Map<string, ConformanceCheck> {
  const byId = new Map<string, ConformanceCheck>();
  const seen = new Map<string, number>();
  for (const check of checks) {
    if (!statuses.has(check.status)) continue;
    const key = `${check.scenario}/${check.id}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    byId.set(count === 1 ? key : `${key}#${count}`, check);
  }
  return byId;
}

/**
 * The suite's checks that assert a refusal rather than benign traffic passing (in 0.1.16 the one
 * check that a rebound Host/Origin is answered 4xx; its partner, a localhost Host accepted, is
 * benign and stays a case). Transparency measures benign traffic, so a protection check is
 * counted in neither score: a broker that refuses nothing is not less transparent for it, and the
 * protection is judged by the attack scenarios named here, where it is scored with its control.
 */
const PROTECTION_CHECKS = new Map<string, readonly string[]>([['dns-rebinding-protection/localhost-host-rebinding-rejected', ['fdr.foreign-host-refused', 'fdr.hostile-origin-refused']]]);

const said = (check: ConformanceCheck) => `${check.status}${check.errorMessage === undefined ? '' : `: ${check.errorMessage}`}`;

/**
 * One finding per check the suite judged direct; a check judged only through the candidate is
 * none. A check that passes direct and that the suite, through the candidate, replaced by an INFO
 * of the same id (its way of saying the behaviour it checks is optional and the candidate chose
 * the other one, such as answering JSON where SSE streams would be checked) is `changed`, citing
 * what the suite cites; missing, failed or warned through the candidate, it is `broken`. A
 * protection check (PROTECTION_CHECKS) is `not-applicable` whatever it says.
 */
export function conformanceFindings(direct: readonly ConformanceCheck[], through: readonly ConformanceCheck[]): TransparencyResult[] {
  const candidate = byFindingId(through, JUDGED);
  const informed = byFindingId(through, new Set(['INFO']));
  return [...byFindingId(direct, JUDGED)].map(([id, check]): TransparencyResult => {
    const base = { suite: 'conformance' as const, id, title: check.description };
    const there = candidate.get(id);
    const judgedBy = PROTECTION_CHECKS.get(id);
    // Not counted, but what the candidate did is shown, as for every other check.
    if (judgedBy !== undefined) return { ...base, verdict: 'not-applicable', detail: `a protection check, not benign traffic: judged by the scenarios ${judgedBy.join(' and ')} (direct: ${said(check)}; through the candidate: ${there === undefined ? 'not made' : said(there)})` };
    if (check.status !== 'SUCCESS') return { ...base, verdict: 'not-applicable', detail: `direct: ${said(check)}` };
    if (there?.status === 'SUCCESS') return { ...base, verdict: 'preserved', detail: 'passes direct and through the candidate' };
    const optional = there === undefined ? informed.get(id) : undefined;
    if (optional !== undefined) {
      const requirement = optional.specReferences?.[0];
      return { ...base, verdict: 'changed', ...(requirement === undefined ? {} : { requirement }), detail: `passes direct; through the candidate the suite found the behaviour it checks optional and not used: ${optional.description}` };
    }
    return { ...base, verdict: 'broken', detail: `passes direct; through the candidate: ${there === undefined ? 'not made (the scenario ended before it)' : said(there)}` };
  });
}

/** The conformance server's tools: each is harmless, so the operator classes them all read-only. */
const TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_tool_with_progress',
  'test_error_handling',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_reconnection',
  'json_schema_2020_12_tool',
];
const PROMPTS = ['test_simple_prompt', 'test_prompt_with_arguments', 'test_prompt_with_embedded_resource', 'test_prompt_with_image'];

/**
 * The operator's configuration that permits everything the conformance server does: every tool,
 * its resources and prompts, sampling and elicitation, and non-text content passed on. The
 * server listens on loopback, which the operator opts in to by its exact origin.
 */
export function permittingOperator(serverUrl: string): OperatorConfig {
  return {
    tools: Object.fromEntries(TOOLS.map((tool) => [tool, { effect: 'read_only' as const }])),
    resources: { allow: ['test://'] },
    prompts: Object.fromEntries(PROMPTS.map((prompt) => [prompt, {}])),
    sampling: { allow: true },
    elicitation: { allow: true },
    non_text: 'pass',
    allow_private_origin: new URL(serverUrl).origin,
  };
}

export interface ConformanceOptions {
  /** Bound on one run of the suite (about 30 scenarios). */
  suiteTimeoutMs?: number;
  /**
   * The suite's checks direct, from an earlier run against the conformance server in the same
   * run of the harness, to judge several candidates on one direct run; run here when absent.
   */
  direct?: readonly ConformanceCheck[];
  /** Bound on each of the candidate's pin and start. */
  stepTimeoutMs?: number;
}

/** The conformance server for a candidate that only starts its server from a command: the same handlers over stdio. */
const STDIO_SERVER = join(packageRoot, 'dist', 'harness', 'transparency', 'conformance-stdio.js');

/**
 * The conformance suite direct and through `candidate`'s front door, judged check by check, with
 * one conformance server for both: dialled by URL, or, by a candidate that only starts its server
 * from a command, started over stdio with the same handlers. A candidate the agent cannot reach
 * over HTTP is unsupported for this suite: the suite speaks Streamable HTTP only. A
 * candidate that fails to pin or start under the permitting configuration, or that the suite
 * cannot run through, breaks every check that passes direct, with its reason; the suite failing
 * direct is an error, since then nothing can be judged.
 */
export async function conformanceTransparency(candidate: Candidate, options: ConformanceOptions = {}): Promise<ConformanceOutcome> {
  const suiteTimeoutMs = options.suiteTimeoutMs ?? 120_000;
  const stepTimeoutMs = options.stepTimeoutMs ?? 20_000;
  const server = await startConformanceServer();
  const workdir = await mkdtemp(join(tmpdir(), 'gauntlet-conformance-candidate-'));
  try {
    let began = performance.now();
    const direct = options.direct ?? (await runConformanceSuite(server.url, suiteTimeoutMs));
    const directMs = options.direct === undefined ? Math.round(performance.now() - began) : 0;
    if (!candidate.info.agentTransports?.includes('http')) return { unsupported: "the conformance suite speaks Streamable HTTP to the candidate's front door, and its agent transports do not include http", findings: [], durations: { directMs } };
    const spec = conformanceSpec(candidate, workdir, server.url, stepTimeoutMs);
    began = performance.now();
    try {
      const through = await throughCandidate(candidate, spec, suiteTimeoutMs);
      return { findings: conformanceFindings(direct, through), durations: { directMs, candidateMs: Math.round(performance.now() - began) } };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const findings = conformanceFindings(direct, []).map((finding) => (finding.verdict === 'broken' ? { ...finding, detail: `passes direct; through the candidate the suite could not run: ${reason}` } : finding));
      return { findings, durations: { directMs } };
    }
  } finally {
    await server.close();
    await rm(workdir, { recursive: true, force: true });
  }
}

/**
 * The session a candidate is pinned and started for under the suite: the conformance server at
 * `serverUrl` dialled by URL, or its handlers over stdio for a candidate that only starts a
 * server from a command; the permitting operator; the agent over HTTP.
 */
export function conformanceSpec(candidate: Candidate, workdir: string, serverUrl: string, stepTimeoutMs: number): SessionSpec {
  const byUrl = (candidate.info.upstreams ?? ['command']).includes('url');
  return {
    workdir,
    upstream: byUrl ? { id: 'conformance', url: serverUrl } : { id: 'conformance', command: process.execPath, args: [STDIO_SERVER] },
    operator: permittingOperator(serverUrl),
    env: { ...process.env },
    timeoutMs: stepTimeoutMs,
    agentHttp: { headers: {} },
  };
}

/** The suite's checks through the candidate's front door, the candidate pinned and started for `spec`. */
export async function throughCandidate(candidate: Candidate, spec: SessionSpec, suiteTimeoutMs: number, release: SuiteRelease = PINNED_RELEASE): Promise<ConformanceCheck[]> {
  const pinned = await candidate.pin(spec);
  if (!pinned.ok) throw new Error(`${candidate.info.name} refused to pin the conformance server: ${pinned.detail}`);
  const channel = await candidate.start(spec);
  try {
    const url = channel.frontDoor?.url;
    if (url === undefined) throw new Error(`${candidate.info.name} started without a front door`);
    return await runConformanceSuite(url, suiteTimeoutMs, release);
  } finally {
    await channel.close();
  }
}

/** Bound on one run of the suite's 30 server scenarios, direct or through a candidate. */
const SUITE_TIMEOUT_MS = 120_000;

/**
 * The conformance suite as a transparency suite of `gauntlet run` (conformanceTransparency); a
 * candidate the suite cannot reach (no HTTP front door, no URL upstream) is one `unsupported`
 * result, counted nowhere.
 */
export const conformanceSuite: TransparencySuite = {
  name: 'conformance',
  title: "the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16): its server scenarios against the conformance server, direct and through the candidate's front door (the server over stdio for a candidate that starts it from a command)",
  async run(candidate, options) {
    const began = performance.now();
    try {
      suiteEntry();
    } catch (error) {
      // A dev dependency of the suite: absent where mcp-gauntlet is installed as a package.
      return [{ suite: 'conformance', id: 'suite', title: 'the conformance suite', verdict: 'unsupported', detail: `@modelcontextprotocol/conformance is not installed where the suite runs: ${(error as Error).message}` }];
    }
    try {
      const outcome = await conformanceTransparency(candidate, { suiteTimeoutMs: SUITE_TIMEOUT_MS, stepTimeoutMs: options.stepTimeoutMs });
      if (outcome.unsupported !== undefined) return [{ suite: 'conformance', id: 'suite', title: 'the conformance suite through the candidate', verdict: 'unsupported', detail: outcome.unsupported }];
      return outcome.findings;
    } finally {
      options.onSession?.('conformance', 'suite', Math.round(performance.now() - began));
    }
  },
};
