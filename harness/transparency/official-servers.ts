import { existsSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { dir as tmpDir } from 'tmp-promise';
import { spawnHttpChannel } from '../agent/http-channel.js';
import { spawnChannel } from '../candidates/child.js';
import type { AgentChannel, Candidate, SessionSpec } from '../candidates/types.js';
import { hold } from '../observe/containment.js';
import { judgeOperation } from './judge.js';
import { observeSession, type Observed, type SessionObservation } from './observe.js';
import type { Names } from '../candidates/offered-names.js';
import { permittingConfig } from './permitting.js';
import type { SessionScript } from './script.js';
import { httpCommand, OFFICIAL_SERVERS, onSomeFreePort, serverEnv, startHttpServer, stdioCommand, type Prepared, type RunningHttpServer } from './servers.js';
import { SESSIONS } from './sessions/index.js';
import type { TransparencyOptions, TransparencyResult, TransparencySuite } from './types.js';

const SUITE = 'official-servers';

type Transport = 'stdio' | 'http';

/**
 * Why the candidate cannot run a session with a server reached over `transport`, or undefined
 * when it can. How the agent reaches the candidate is the candidate's own (its channel, stdio or
 * its HTTP front door), as in every scenario whose agent names no transport.
 */
function unsupportedBecause(candidate: Candidate, transport: Transport): string | undefined {
  const upstreams = candidate.info.upstreams ?? ['command'];
  if (transport === 'stdio' && !upstreams.includes('command')) return 'the candidate cannot start a server from a command';
  if (transport === 'http' && !upstreams.includes('url')) return 'the candidate cannot reach a server by URL';
  return undefined;
}

/** The agent's session straight with the server: over its stdio, or over Streamable HTTP to a server the channel starts. */
async function directChannel(script: SessionScript, transport: Transport, prepared: Prepared, workdir: string, timeoutMs: number): Promise<AgentChannel> {
  const server = OFFICIAL_SERVERS[script.server];
  const stderrFile = join(workdir, `${server.id}-direct.log`);
  if (transport === 'stdio') {
    const { command, args } = stdioCommand(server, prepared);
    return spawnChannel(command, args, { cwd: workdir, env: serverEnv(prepared), stderrFile });
  }
  return onSomeFreePort(async () => {
    const { command, args, env, url } = await httpCommand(server, prepared);
    const channel = spawnHttpChannel(command, args, { url, cwd: workdir, env, stderrFile, readyTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs });
    // `ready` settles either way; a server that exited (its port taken) is tried on another.
    await channel.ready;
    const exited = await Promise.race([channel.exited.then(() => true), new Promise<false>((resolve) => setImmediate(() => resolve(false)))]);
    if (!exited) return channel;
    const tail = channel.stderrTail?.(500) ?? '';
    await channel.close();
    throw new Error(`the server over HTTP exited before it served: ${tail}`);
  });
}

/** Observes a session on a channel, closing the channel whatever happens. */
async function observed(channel: AgentChannel, script: SessionScript, prepared: Prepared, reads: 'listed' | readonly string[] | undefined, options: TransparencyOptions, names?: Names): Promise<SessionObservation> {
  try {
    const session = await observeSession(channel, script.side(prepared), script.operations(prepared), reads, options.stepTimeoutMs, options.signal, names);
    // A session that never got past initialize says why in the end of the process's stderr.
    const [initialize] = session.observed;
    if (initialize !== undefined && initialize.answer.kind !== 'result') session.stderrTail = channel.stderrTail?.(1_000);
    return session;
  } finally {
    await channel.close();
  }
}

/**
 * The same session through the candidate, under a permitting configuration made from what the
 * server offered direct. Gives the observations, or why there are none (the candidate refused the
 * pin or failed to start: every operation is then broken).
 */
async function throughCandidate(candidate: Candidate, script: SessionScript, transport: Transport, direct: SessionObservation, state: string, workdir: string, options: TransparencyOptions): Promise<SessionObservation | string> {
  const server = OFFICIAL_SERVERS[script.server];
  const prepared = await server.prepare(state);
  const side = script.side(prepared);
  let running: RunningHttpServer | undefined;
  try {
    if (transport === 'http') running = await startHttpServer(server, prepared, workdir, options.stepTimeoutMs);
    const operator = permittingConfig(direct.observed, side, prepared.env);
    const reachedByUrl = running === undefined ? {} : { server_url: running.url, allow_private_origin: new URL(running.url).origin };
    const candidateDir = join(workdir, 'candidate');
    await mkdir(candidateDir, { recursive: true });
    const spec: SessionSpec = {
      workdir: candidateDir,
      upstream: running === undefined ? { id: server.id, ...stdioCommand(server, prepared) } : { id: server.id, url: running.url },
      operator: { ...operator, ...reachedByUrl },
      env: { ...process.env },
      timeoutMs: options.stepTimeoutMs,
    };
    const pinned = await candidate.pin(spec);
    if (!pinned.ok) return `the candidate refused the permitting configuration at pin: ${pinned.detail}`;
    let channel: AgentChannel;
    try {
      channel = await candidate.start(spec);
    } catch (error) {
      return `the candidate did not start: ${(error as Error).message}`;
    }
    return await observed(channel, script, prepared, script.readListed ? direct.listedUris : undefined, options, candidate.names);
  } finally {
    await running?.stop();
  }
}

/** Every direct operation judged against the candidate's. */
function judged(session: string, title: string, direct: SessionObservation, candidate: SessionObservation | string): TransparencyResult[] {
  const operations = new Map(typeof candidate === 'string' ? [] : candidate.observed.map((entry) => [entry.id, entry]));
  const tails = [direct.stderrTail && `direct stderr: ${direct.stderrTail}`, typeof candidate !== 'string' && candidate.stderrTail && `candidate stderr: ${candidate.stderrTail}`].filter(Boolean);
  return direct.observed.map((entry) => {
    const method = entry.id === 'initialize' ? 'initialize' : entry.id.split(':')[0]!;
    const judgement =
      typeof candidate === 'string' && entry.answer.kind === 'result' ? { verdict: 'broken' as const, detail: candidate } : judgeOperation(method, entry, operations.get(entry.id));
    const detail = entry.id === 'initialize' && tails.length > 0 ? `${judgement.detail} (${tails.join('; ')})` : judgement.detail;
    return { suite: SUITE, id: `${session}/${entry.id}`, title: `${title}: ${entry.id}`, ...judgement, detail };
  });
}

/** One server over one transport: direct, then through the candidate, each from a fresh state, then judged. */
async function runSession(candidate: Candidate, script: SessionScript, transport: Transport, options: TransparencyOptions): Promise<TransparencyResult[]> {
  const server = OFFICIAL_SERVERS[script.server];
  const session = `${server.id}/${transport}`;
  const title = `${server.package} over ${transport === 'stdio' ? 'stdio' : 'Streamable HTTP'}`;
  // The servers are the suite's dev dependencies: present in its checkout after `npm ci`, absent
  // where mcp-gauntlet is installed as a package. Not there is not a candidate's failure.
  if (!existsSync(server.entry)) {
    return [{ suite: SUITE, id: `${session}/session`, title, verdict: 'unsupported', detail: `${server.package} is not installed beside mcp-gauntlet (${server.entry}): it is one of the suite's dev dependencies, installed by npm ci in its checkout` }];
  }
  const created = await tmpDir({ prefix: 'gauntlet-transparency-', unsafeCleanup: true });
  // Removed at exit if the run never gets to remove it (an interrupt, a crash of the harness).
  const unhold = hold('folder', () => rmSync(created.path, { recursive: true, force: true }));
  const started = Date.now();
  try {
    const state = join(created.path, 'state');
    const prepared = await server.prepare(state);
    let direct: SessionObservation;
    try {
      direct = await observed(await directChannel(script, transport, prepared, created.path, options.stepTimeoutMs), script, prepared, script.readListed ? 'listed' : undefined, options);
    } catch (error) {
      return [{ suite: SUITE, id: `${session}/session`, title, verdict: 'not-applicable', detail: `the session did not run direct: ${(error as Error).message}` }];
    }
    const why = unsupportedBecause(candidate, transport);
    if (why !== undefined) {
      return direct.observed.map((entry) => ({ suite: SUITE, id: `${session}/${entry.id}`, title: `${title}: ${entry.id}`, verdict: 'unsupported' as const, detail: why }));
    }
    const through = await throughCandidate(candidate, script, transport, direct, state, created.path, options).catch((error: unknown) => `harness or adapter error: ${(error as Error).message}`);
    return judged(session, title, direct, through);
  } finally {
    options.onSession?.(SUITE, session, Date.now() - started);
    await created.cleanup().then(unhold);
  }
}

/** The four official MCP servers, each with its scripted benign session, direct against the candidate. */
export const officialServersSuite: TransparencySuite = {
  name: SUITE,
  title: 'the official MCP servers (server-everything, -filesystem, -memory, -sequential-thinking), benign sessions direct and through the candidate',
  async run(candidate, options) {
    const results: TransparencyResult[] = [];
    for (const script of SESSIONS) {
      for (const transport of script.transports) results.push(...(await runSession(candidate, script, transport, options)));
    }
    return results;
  },
};
