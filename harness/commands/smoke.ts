import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient, type Answer } from '../agent/client.js';
import { openCandidate, type OpenedCandidate } from '../candidates/registry.js';
import type { AgentChannel, SessionSpec } from '../candidates/types.js';
import { callsTo, Ledger, serverPids } from '../observe/ledger.js';
import { groupMembers, isAlive, killAll } from '../observe/processes.js';
import { serverEntry } from '../paths.js';
import { OPERATOR_ENV } from '../run/execute.js';
import { parseOptions, parseStepTimeout } from '../run/options.js';

/**
 * How long a broker gets to exit once its input ends, as the close steps of the catalogue allow
 * (harness/candidates/child.ts gives the same grace before it kills a group).
 */
const EXIT_GRACE_MS = 3_000;

const MARGIN_MS = 1_000;

/** The benign session: the catalogue's honest notes server, every tool classified, as the classification control has it. */
const BENIGN_SERVER = 'notes';
const BENIGN_CALL = { tool: 'search_notes', arguments: { query: 'hello' } };
const BENIGN_OPERATOR = {
  tools: { search_notes: { effect: 'read_only' }, read_note: { effect: 'read_only' }, write_note: { effect: 'local_change' } },
} as const;

/** Prints each check as it is made: `ok`, `FAIL` with the precise reason, or `skip` with why. */
class Checklist {
  failures = 0;

  ok(step: string, detail: string): void {
    process.stdout.write(`ok    ${step}: ${detail}\n`);
  }

  fail(step: string, reason: string): void {
    this.failures++;
    process.stdout.write(`FAIL  ${step}: ${reason}\n`);
  }

  skip(step: string, why: string): void {
    process.stdout.write(`skip  ${step}: ${why}\n`);
  }

  /** Runs one step within `ms`: a throw or no settling in time is its FAIL, with the reason. */
  async attempt<T>(step: string, ms: number, work: () => Promise<T>): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([work(), late]);
    } catch (error) {
      this.fail(step, (error as Error).message);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

const answerText = (answer: Answer): string =>
  answer.kind === 'result' ? 'a result' : answer.kind === 'error' ? `an error (${answer.error.message})` : answer.kind === 'malformed' ? `a malformed line (${answer.why})` : answer.kind === 'closed' ? 'nothing: the channel closed' : 'nothing in time';

const listed = (members: Array<{ pid: number; command: string }>): string => members.map((m) => `pid ${m.pid} (${m.command || '?'})`).join(', ');

/**
 * `gauntlet smoke --candidate X`: is the adapter wired correctly, before any score of it is
 * trusted? Handshake and declaration, one pin and start in front of a benign server, initialize,
 * tools/list and one benign call answered, a clean stop, and nothing left running by the broker
 * or the adapter. Exit 0 when every check passes, 2 otherwise.
 */
export async function smokeCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions({ args: argv, options: { candidate: { type: 'string' }, 'step-timeout': { type: 'string' } } });
  if (values.candidate === undefined) {
    process.stderr.write('usage: gauntlet smoke --candidate NAME_OR_ADAPTER [--step-timeout MS]\n');
    return 2;
  }
  let timeoutMs: number;
  try {
    timeoutMs = parseStepTimeout(values['step-timeout']);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const checks = new Checklist();
  const opened = await checks.attempt('handshake and declaration', timeoutMs + EXIT_GRACE_MS, () => openCandidate(values.candidate!));
  if (opened) {
    const { info } = opened.candidate;
    checks.ok('handshake and declaration', `${info.name} ${info.version}, ${info.adapterProtocol}, claims [${info.claims.join(', ')}], upstreams [${(info.upstreams ?? ['command']).join(', ')}]`);
    const workdir = await mkdtemp(join(tmpdir(), 'gauntlet-smoke-'));
    try {
      await benignSession(opened, workdir, timeoutMs, checks);
    } finally {
      await rm(workdir, { recursive: true, force: true });
    }
  }
  process.stdout.write(checks.failures === 0 ? 'smoke: all good\n' : `smoke: ${checks.failures} problem(s)\n`);
  return checks.failures === 0 ? 0 : 2;
}

async function benignSession({ candidate, protocol }: OpenedCandidate, workdir: string, timeoutMs: number, checks: Checklist): Promise<void> {
  const ledger = new Ledger(join(workdir, 'ledger.jsonl'));
  const spec: SessionSpec = {
    workdir,
    upstream: { id: BENIGN_SERVER, command: process.execPath, args: [serverEntry, BENIGN_SERVER, '--ledger', ledger.path] },
    operator: structuredClone(BENIGN_OPERATOR) as SessionSpec['operator'],
    env: { ...process.env, ...OPERATOR_ENV },
    timeoutMs,
  };
  let channel: AgentChannel | undefined;
  try {
    // A margin past the adapter's own bound, so that a protocol adapter's own account of a timeout comes first.
    const pinned = await checks.attempt('pin', timeoutMs + MARGIN_MS, () => candidate.pin(spec));
    if (pinned?.ok) checks.ok('pin', pinned.detail);
    else if (pinned) checks.fail('pin', `refused on a benign server: ${pinned.detail}`);
    channel = await checks.attempt('start', timeoutMs + MARGIN_MS, () => candidate.start(spec));
    if (!channel) {
      for (const step of ['initialize', 'tools/list', 'tools/call', 'stop', 'nothing left running']) checks.skip(step, 'no broker was started');
    } else {
      checks.ok('start', `broker process group ${channel.pid ?? '(no pid)'}`);
      await converse(channel, candidate.names?.offered(BENIGN_CALL.tool) ?? BENIGN_CALL.tool, ledger, timeoutMs, checks);
      await stopBroker(channel, ledger, timeoutMs, checks);
    }
  } finally {
    // Whatever failed above, the broker's group goes (close is safe to call twice).
    await channel?.close().catch(() => undefined);
    if (protocol) await endAdapter(protocol, checks);
    else await candidate.dispose?.();
  }
}

/** initialize, tools/list and one benign call, each answered with a result, the call received by the server. */
async function converse(channel: AgentChannel, tool: string, ledger: Ledger, timeoutMs: number, checks: Checklist): Promise<void> {
  const agent = new AgentClient(channel, timeoutMs);
  const initialized = await agent.initialize();
  if (initialized.kind !== 'result') {
    checks.fail('initialize', `answered with ${answerText(initialized)}${stderrOf(channel)}`);
    checks.skip('tools/list', 'no session');
    checks.skip('tools/call', 'no session');
    return;
  }
  checks.ok('initialize', `answered (protocol ${String(initialized.result.protocolVersion)})`);
  const { tools, failure } = await agent.listTools();
  const names = tools.map((entry) => String(entry.name));
  if (failure) checks.fail('tools/list', `answered with ${answerText(failure)}`);
  else if (!names.includes(tool)) checks.fail('tools/list', `${tool} is not offered (offered: ${names.join(', ') || 'nothing'})`);
  else checks.ok('tools/list', `${names.length} tool(s): ${names.join(', ')}`);
  const called = await agent.callTool(tool, BENIGN_CALL.arguments);
  const received = callsTo(ledger.read(), BENIGN_CALL.tool).length;
  if (called.kind !== 'result') checks.fail('tools/call', `${tool} answered with ${answerText(called)}`);
  else if (called.result.isError === true) checks.fail('tools/call', `${tool} answered with a tool error: ${JSON.stringify(called.result.content).slice(0, 300)}`);
  else if (received !== 1) checks.fail('tools/call', `${tool} was answered, but the server received it ${received} time(s), not once`);
  else checks.ok('tools/call', `${tool} answered with a result, and the server received it once`);
}

/**
 * The agent hangs up: the broker must exit on its own within the grace period, leaving nothing
 * in its process group and no server alive; then the channel closes, for a protocol adapter with
 * its stop answered.
 */
async function stopBroker(channel: AgentChannel, ledger: Ledger, timeoutMs: number, checks: Checklist): Promise<void> {
  const hungUp = Date.now();
  channel.endInput?.();
  const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), EXIT_GRACE_MS).unref());
  const exited = await Promise.race([channel.exited, late]);
  const exitedAfter = Date.now() - hungUp;
  const group = channel.pid === undefined ? [] : groupMembers(channel.pid);
  const servers = serverPids(ledger.read()).filter(isAlive);
  const closed = await checks.attempt('stop', timeoutMs + EXIT_GRACE_MS, () => channel.close().then(() => true));
  if (closed) {
    if (!channel.endInput) checks.ok('stop', 'the channel closed (the adapter offers no endInput, so the broker was not seen to exit on its own)');
    else if (exited === 'late') checks.fail('stop', `the broker did not exit within ${EXIT_GRACE_MS} ms of its stdin closing; the harness killed it`);
    else checks.ok('stop', `the broker exited within ${exitedAfter} ms of its stdin closing, and the channel closed`);
  }
  const left = [...group.map((m) => `in the broker's process group: ${listed([m])}`), ...servers.filter((pid) => !group.some((m) => m.pid === pid)).map((pid) => `the upstream server, pid ${pid}`)];
  killAll(servers);
  if (left.length > 0) checks.fail('nothing left running', `after the broker exited: ${left.join('; ')}`);
  else checks.ok('nothing left running', "the broker's process group is empty and no server is alive");
}

/** For a protocol adapter: nothing of its own left after stop, and it exits when its stdin closes. */
async function endAdapter(protocol: NonNullable<OpenedCandidate['protocol']>, checks: Checklist): Promise<void> {
  const own = protocol.pid === undefined ? [] : groupMembers(protocol.pid).filter((member) => member.pid !== protocol.pid);
  if (own.length > 0) checks.fail('adapter left nothing running', `after the session, the adapter's process group still holds ${listed(own)}`);
  else checks.ok('adapter left nothing running', "after the session, its process group holds only the adapter");
  const { exitedOnItsOwn } = await protocol.end();
  if (exitedOnItsOwn) checks.ok('adapter exit', 'the adapter exited when its stdin closed');
  else checks.fail('adapter exit', `the adapter did not exit within ${EXIT_GRACE_MS} ms of its stdin closing; its group was killed`);
}

function stderrOf(channel: AgentChannel): string {
  const tail = channel.stderrTail?.().trim();
  return tail ? `; the broker's stderr ends: ${tail.slice(-500)}` : '';
}
