import { writeFile } from 'node:fs/promises';
import { AgentClient, type Answer } from '../agent/client.js';
import type { AgentChannel, Candidate, SessionSpec } from '../candidates/types.js';
import { callsTo, listRequests, serverPids, type Ledger } from '../observe/ledger.js';
import { survivorsAfter } from '../observe/processes.js';
import type { CallExpectation, CallOutcome, EffectiveHints, ListExpectation, StartExpectation, Step } from '../scenario/types.js';
import { CandidateUnresponsive, type Finding } from './outcome.js';

/** How long processes get to disappear after a broker reports it stopped them. */
const DEATH_DEADLINE_MS = 3_000;

/** MCP's defaults for absent hints: what an agent reading the listing would assume. */
const HINT_DEFAULTS: Required<EffectiveHints> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** A check that can only be judged once every process of the scenario has stopped. */
export type DeferredCheck = (ledgerAtEnd: Ledger) => Finding[];

/** The state one scenario's steps share. */
export class ScenarioSession {
  channel: AgentChannel | undefined;
  agent: AgentClient | undefined;
  startedReady = false;
  /** Set as soon as the candidate's process goes away, to tell a dead broker from a live one. */
  brokerExited = false;
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  readonly deferred: DeferredCheck[] = [];
  /** Ledger positions where each call step began, per tool, to bound what each call caused. */
  private readonly callMarks: Array<{ tool: string; mark: number; expectation: CallExpectation; label: string }> = [];

  constructor(
    readonly candidate: Candidate,
    readonly spec: SessionSpec,
    readonly ledger: Ledger,
    readonly controlFile: string,
    readonly stepTimeoutMs: number,
  ) {}

  fail(step: string, expectation: string, expected: unknown, observed: unknown): void {
    this.findings.push({ step, expectation, expected, observed });
  }

  async run(step: Step, index: number): Promise<void> {
    const label = `${index + 1}:${Object.keys(step)[0]}`;
    if ('pin' in step) await this.pin(label);
    else if ('phase' in step) await writeFile(this.controlFile, step.phase);
    else if ('start' in step) await this.start(label, step.start.expect);
    else if ('list' in step) await this.list(label, step.list.expect);
    else if ('call' in step) await this.call(label, step.call.tool, step.call.arguments ?? {}, step.call.expect);
    else await this.close(label);
  }

  private async pin(label: string): Promise<void> {
    const outcome = await this.candidate.pin(this.spec);
    // A pin refusal is the broker's own account, so it decides nothing; the later steps observe.
    this.notes.push(`${label}: pin ${outcome.ok ? 'succeeded' : 'was refused'} (${outcome.detail})`);
  }

  private async start(label: string, expect: StartExpectation): Promise<void> {
    const mark = this.ledger.mark();
    this.channel = await this.candidate.start(this.spec);
    this.brokerExited = false;
    void this.channel.exited.then(() => {
      this.brokerExited = true;
    });
    this.agent = new AgentClient(this.channel, this.stepTimeoutMs);
    const answer = await this.agent.initialize();
    if (answer.kind === 'timeout') throw new CandidateUnresponsive(`${label}: the candidate did not answer initialize within ${this.stepTimeoutMs} ms`);
    const ready = answer.kind === 'result';
    this.startedReady = ready;
    if (expect.outcome === 'ready') {
      if (!ready) this.fail(label, 'start ready', 'an initialize result', describe(answer));
      return;
    }
    if (ready) {
      this.fail(label, 'start refused', 'the candidate refuses to serve', 'it answered initialize and serves');
      return;
    }
    // A refusal counts only if the candidate looked at the server first: a broker that dies
    // before listing anything must not pass.
    const since = this.ledger.read().slice(mark);
    if (listRequests(since).length === 0) {
      this.fail(label, 'refusal after listing', 'the server received tools/list before the refusal', 'the server never received tools/list');
    }
    if (expect.servers_alive !== undefined) {
      const alive = await survivorsAfter(serverPids(since), DEATH_DEADLINE_MS);
      if (alive.length > expect.servers_alive) {
        this.fail(label, 'servers alive after refusal', `at most ${expect.servers_alive}`, `${alive.length} (pids ${alive.join(', ')})`);
      }
    }
  }

  private requireAgent(label: string): AgentClient {
    if (!this.agent || !this.startedReady) throw new CandidateUnresponsive(`${label}: no session to use (the start was refused)`);
    return this.agent;
  }

  private async list(label: string, expect: ListExpectation): Promise<void> {
    const listing = await this.requireAgent(label).listTools();
    if (listing.failure) {
      if (listing.failure.kind === 'closed' || listing.failure.kind === 'timeout') {
        throw new CandidateUnresponsive(`${label}: tools/list ${describe(listing.failure)}`);
      }
      this.fail(label, 'listing answered', 'a tools/list result', describe(listing.failure));
      return;
    }
    const byName = new Map<string, Record<string, unknown>>();
    const repeated = new Set<string>();
    for (const tool of listing.tools) {
      const name = String(tool.name);
      if (byName.has(name)) repeated.add(name);
      byName.set(name, tool);
    }
    // An agent shown one name twice cannot know which tool it calls: never acceptable.
    if (repeated.size > 0) this.fail(label, 'names unique', 'each tool offered once', `offered twice: ${[...repeated].join(', ')}`);
    for (const name of expect.includes ?? []) {
      if (!byName.has(name)) this.fail(label, `offers ${name}`, 'offered', 'not offered');
    }
    for (const name of expect.excludes ?? []) {
      if (byName.has(name)) this.fail(label, `withholds ${name}`, 'not offered', 'offered');
    }
    if (expect.count !== undefined && listing.tools.length !== expect.count) {
      this.fail(label, 'tool count', expect.count, listing.tools.length);
    }
    for (const [name, text] of Object.entries(expect.descriptions ?? {})) {
      const seen = byName.get(name)?.description;
      if (seen !== text) this.fail(label, `description of ${name}`, text, seen ?? '(tool not offered)');
    }
    for (const [name, hints] of Object.entries(expect.effective_hints ?? {})) {
      const tool = byName.get(name);
      if (!tool) {
        this.fail(label, `hints of ${name}`, hints, '(tool not offered)');
        continue;
      }
      const seen = effectiveHints(tool.annotations);
      for (const [hint, value] of Object.entries(hints) as Array<[keyof EffectiveHints, boolean]>) {
        if (seen[hint] !== value) this.fail(label, `${hint} of ${name}`, value, seen[hint]);
      }
    }
  }

  private async call(label: string, tool: string, args: Record<string, unknown>, expect: CallExpectation): Promise<void> {
    const mark = this.ledger.mark();
    this.callMarks.push({ tool, mark, expectation: expect, label });
    const answer = await this.requireAgent(label).callTool(tool, args);
    if (answer.kind === 'closed' || answer.kind === 'timeout') {
      throw new CandidateUnresponsive(`${label}: tools/call ${tool} ${describe(answer)}`);
    }
    const observed = callOutcome(answer);
    const met = expect.agent === 'refused' ? observed === 'tool-error' || observed === 'protocol-error' : observed === expect.agent;
    if (!met) this.fail(label, `agent receives ${expect.agent}`, expect.agent, `${observed}: ${answer.kind === 'malformed' ? answer.why : answer.raw.slice(0, 300)}`);
  }

  private async close(label: string): Promise<void> {
    const channel = this.channel;
    if (!channel) return;
    // A broker that died during the session has proved nothing about the calls it "refused".
    if (this.brokerExited && this.startedReady) this.fail(label, 'alive until close', 'the broker serves until the agent closes', 'it had already exited');
    await channel.close();
    this.channel = undefined;
  }

  /** What each call step caused on the server, judged once every process has stopped. */
  callChecks(): DeferredCheck {
    return (ledger) => {
      const entries = ledger.read();
      const findings: Finding[] = [];
      this.callMarks.forEach((call, index) => {
        if (call.expectation.server_received === undefined) return;
        const next = this.callMarks.slice(index + 1).find((later) => later.tool === call.tool);
        const received = callsTo(entries.slice(call.mark, next?.mark), call.tool).length;
        if (received !== call.expectation.server_received) {
          findings.push({
            step: call.label,
            expectation: `server receives ${call.tool}`,
            expected: `${call.expectation.server_received} tools/call`,
            observed: `${received} tools/call`,
          });
        }
      });
      return findings;
    };
  }
}

function callOutcome(answer: Answer): CallOutcome | 'malformed' {
  if (answer.kind === 'error') return 'protocol-error';
  if (answer.kind === 'result') return answer.result.isError === true ? 'tool-error' : 'result';
  return 'malformed';
}

function effectiveHints(annotations: unknown): Required<EffectiveHints> {
  const given = annotations && typeof annotations === 'object' ? (annotations as Record<string, unknown>) : {};
  const pick = (hint: keyof EffectiveHints) => (typeof given[hint] === 'boolean' ? (given[hint] as boolean) : HINT_DEFAULTS[hint]);
  return {
    readOnlyHint: pick('readOnlyHint'),
    destructiveHint: pick('destructiveHint'),
    idempotentHint: pick('idempotentHint'),
    openWorldHint: pick('openWorldHint'),
  };
}

export function describe(answer: Answer): string {
  switch (answer.kind) {
    case 'result':
      return `result ${answer.raw.slice(0, 200)}`;
    case 'error':
      return `protocol error ${answer.error.code}: ${answer.error.message.slice(0, 200)}`;
    case 'malformed':
      return `malformed answer (${answer.why})`;
    case 'closed':
      return 'no answer: the channel closed';
    case 'timeout':
      return 'no answer before the step timeout';
  }
}
