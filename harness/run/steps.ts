import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseLossless } from 'lossless-json';
import { AgentClient, type Answer } from '../agent/client.js';
import { generateArguments, GenerationError } from '../args/generate.js';
import type { AgentChannel, Candidate, SessionSpec, UpstreamCommand, UpstreamUrl } from '../candidates/types.js';
import type { LedgerRecord, RecvRecord } from '../../servers/kit/ledger.js';
import { argumentMismatches, losslessText, receivedArguments, sameJson } from '../observe/arguments.js';
import { firstUnescaped } from '../observe/escaped.js';
import { everyString } from '../observe/strings.js';
import { callsTo, connections, launches, serverPids, type Ledger } from '../observe/ledger.js';
import { residentGrowthMib } from '../observe/memory.js';
import { survivorsAfter } from '../observe/processes.js';
import type { ApproveStep, CallOutcome, CallStep, CloseExpectation, ConfigFlaw, EffectiveHints, ListExpectation, StartExpectation, Step } from '../scenario/types.js';
import { withFlaw } from './flaws.js';
import { CandidateUnresponsive, UnsupportedEnvironment, type Finding } from './outcome.js';

/** How long processes get to disappear after a broker reports it stopped them. */
const DEATH_DEADLINE_MS = 3_000;

/** The `_meta` key that carries the chain of upstream agents (docs/call-path.md). */
const AGENT_CHAIN_META = 'io.mcp-gauntlet/agent-chain';

/** A name no server offers, for comparing refusals with the answer to a tool that does not exist. */
const NOWHERE_TOOL = 'gauntlet_tool_that_exists_nowhere';

/** Where a result carries its receipt (docs/call-path.md). */
const RECEIPT_META = 'io.mcp-gauntlet/receipt';

/** The truncation marker of docs/result-path.md: N characters sent, of M the server gave. */
const TRUNCATION_MARKER = /\[truncated: showing (\d+) of (\d+) characters\]$/;

/** MCP's defaults for absent hints: what an agent reading the listing would assume. */
const HINT_DEFAULTS: Required<EffectiveHints> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

type Tool = Record<string, unknown>;


interface CallMark {
  label: string;
  serverTool: string;
  mark: number;
  step: CallStep;
  /** The arguments as the agent sent them. */
  args: Record<string, unknown>;
  /** What the agent got back, once it did. */
  answer?: AnswerFacts;
}

/** What an answer told the agent: a refusal code, a receipt, both or neither. */
export interface AnswerFacts {
  code: string | undefined;
  receipt: Record<string, unknown> | undefined;
}

/** One call step, with the calls of its tool that the server received because of it. */
export interface ObservedCall {
  label: string;
  /** The name the agent called. */
  tool: string;
  args: Record<string, unknown>;
  received: number;
  answer: AnswerFacts | undefined;
}

/** The state one scenario's steps share. */
export class ScenarioSession {
  channel: AgentChannel | undefined;
  agent: AgentClient | undefined;
  startedReady = false;
  /** Set as soon as the candidate's process goes away, to tell a dead broker from a live one. */
  brokerExited = false;
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  /** The tools the agent was last shown, by name: generated arguments follow their schemas. */
  private offered = new Map<string, Tool>();
  /** The tools of the session's first listing, by name: what an `unchanged` listing must repeat. */
  private firstOffered: Map<string, Tool> | undefined;
  /** The latest approval request id the agent was told about, per tool. */
  private readonly pendingApprovals = new Map<string, string>();
  /** Ledger positions where each call step began, to bound what each call caused. */
  private readonly callMarks: CallMark[] = [];

  constructor(
    readonly candidate: Candidate,
    readonly spec: SessionSpec,
    readonly ledger: Ledger,
    readonly controlFile: string,
    readonly stepTimeoutMs: number,
    /** How to start another catalogue server, for a pin step that names one. */
    readonly upstreamOf: (catalogue: string) => UpstreamCommand | UpstreamUrl,
  ) {}

  fail(step: string, expectation: string, expected: unknown, observed: unknown): void {
    this.findings.push({ step, expectation, expected, observed });
  }

  async run(step: Step, index: number): Promise<void> {
    const label = `${index + 1}:${Object.keys(step)[0]}`;
    if ('pin' in step) await this.pin(label, step.pin?.server);
    else if ('phase' in step) await this.switchPhase(step.phase);
    else if ('start' in step) await this.start(label, step.start.expect, step.start.agent, step.start.flaw);
    else if ('kill_candidate' in step) await this.killCandidate(label, step.kill_candidate.expect);
    else if ('list' in step) await this.list(label, step.list.expect);
    else if ('call' in step) await this.call(label, step.call);
    else if ('approve' in step) await this.approve(label, step.approve);
    else await this.close(label, step.close?.expect);
  }

  /**
   * Writes the phase beside the control file and renames it into place: a server reading the file
   * while a line the agent sent earlier is still on its way then sees the old phase or the new,
   * never a half-written file (which stops the kit).
   */
  private async switchPhase(phase: 'review' | 'run'): Promise<void> {
    const next = `${this.controlFile}.next`;
    await writeFile(next, phase);
    await rename(next, this.controlFile);
  }

  private async pin(label: string, server: string | undefined): Promise<void> {
    const spec = server === undefined ? this.spec : { ...this.spec, upstream: this.upstreamOf(server) };
    const outcome = await this.candidate.pin(spec);
    // A pin refusal is the broker's own account, so it decides nothing; the later steps observe.
    this.notes.push(`${label}: pin ${outcome.ok ? 'succeeded' : 'was refused'} (${outcome.detail})`);
  }

  private async start(label: string, expect: StartExpectation, agent: string | undefined, flaw: ConfigFlaw | undefined): Promise<void> {
    // A start after a refused one: whatever the refused one left is gone first.
    await this.channel?.close();
    const mark = this.ledger.mark();
    if (agent !== undefined) this.spec.agent = agent;
    // The flaw is for this start only: a later pin or start sees the operator's files as written.
    this.channel = await this.candidate.start(flaw === undefined ? this.spec : { ...this.spec, ...withFlaw(this.spec.operator, flaw) });
    this.brokerExited = false;
    this.firstOffered = undefined;
    void this.channel.exited.then(() => {
      this.brokerExited = true;
    });
    this.agent = new AgentClient(this.channel, this.stepTimeoutMs);
    const answer = await this.agent.initialize(expect.within_ms);
    if (answer.kind === 'timeout') {
      // As for calls: a step about answering in time fails on silence; elsewhere silence is an error.
      if (expect.within_ms === undefined) throw new CandidateUnresponsive(`${label}: the candidate did not answer initialize within ${this.stepTimeoutMs} ms`);
      this.fail(label, `start decided within ${expect.within_ms} ms`, expect.outcome, describe(answer));
      return;
    }
    const ready = answer.kind === 'result';
    this.startedReady = ready;
    if (expect.server_group === 'separate') this.checkSeparateGroup(label, mark);
    if (expect.outcome === 'ready') {
      if (!ready) this.fail(label, 'start ready', 'an initialize result', describe(answer));
      return;
    }
    if (ready) {
      this.fail(label, 'start refused', 'the candidate refuses to serve', 'it answered initialize and serves');
      return;
    }
    if (expect.outcome === 'refused-before-launch') {
      await this.refusedBeforeReaching(label, expect, 'starting the server', () => launches(this.ledger.read().slice(mark)));
      return;
    }
    if (expect.outcome === 'refused-before-connect') {
      // The listener's connections over the whole scenario: a pin that dialled counts as well.
      await this.refusedBeforeReaching(label, expect, 'dialling the server', () => connections(this.ledger.read()));
      return;
    }
    // A refusal counts only if the candidate reached the server first: a broker that dies before
    // it has looked at anything must not pass.
    const since = this.ledger.read().slice(mark);
    const needed = expect.after ?? 'tools/list';
    if (!since.some((record) => record.ev === 'recv' && record.method === needed)) {
      this.fail(label, 'refusal after contact', `the server received ${needed} before the refusal`, `the server never received ${needed}`);
    }
    if (expect.servers_alive !== undefined) await this.checkServersAlive(label, expect.servers_alive, 'refusal', { records: since });
  }

  /**
   * A refusal before the server is reached at all: started (`refused-before-launch`, for operator
   * files the candidate cannot trust) or dialled (`refused-before-connect`, for an address it must
   * not reach). The candidate must stop, within the step timeout, and the ledger must show no such
   * contact. That cannot show it looked at anything, so something else must keep a candidate that
   * dies at every start from passing: where the scenario names what the refusal must say
   * (`reason_includes`), its adapter's `configurationRefusal` must give a reason that says it (a
   * crash gives none); elsewhere the scenario's own later ready start does. The loader's tests hold
   * every such scenario to one of the two.
   */
  private async refusedBeforeReaching(label: string, expect: StartExpectation, contact: string, contacts: () => LedgerRecord[]): Promise<void> {
    const channel = this.channel!;
    const bound = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), this.stepTimeoutMs).unref());
    const status = await Promise.race([channel.exited, bound]);
    // Closed now, so that everything it wrote on its way out is there for the adapter to read.
    await channel.close();
    if (status === undefined) {
      this.fail(label, `refused before ${contact}`, 'the candidate stops', 'it did not stop');
      return;
    }
    const made = contacts();
    if (made.length > 0) this.fail(label, `refused before ${contact}`, 'no contact with the server', `${made.length} ${made[0]!.ev} record(s) in the ledger`);
    if (expect.reason_includes === undefined) return;
    const reason = await this.candidate.configurationRefusal?.(this.spec, status);
    if (reason === undefined) {
      this.fail(label, 'refusal explained', 'the candidate says why it refuses', `it exited with ${status.code ?? status.signal}, and its adapter reports no refusal`);
      return;
    }
    this.notes.push(`${label}: refused: ${reason}`);
    for (const fragment of expect.reason_includes) {
      if (!reason.includes(fragment)) this.fail(label, `refusal names ${JSON.stringify(fragment)}`, 'named in the reason', reason);
    }
  }

  /** Every server launched since `mark` is in a process group other than the candidate's. */
  private checkSeparateGroup(label: string, mark: number): void {
    // spawnChannel starts every candidate as the leader of its own group, so its pid is its pgid.
    const candidateGroup = this.channel?.pid;
    if (candidateGroup === undefined) throw new Error(`${label}: the candidate channel reports no pid`);
    const started = launches(this.ledger.read().slice(mark));
    if (started.length === 0) this.fail(label, 'server in a group of its own', 'a server launch to inspect', 'none');
    for (const launch of started) {
      if (launch.pgid === null) throw new UnsupportedEnvironment(`${label}: the server could not read its process group from /proc`);
      if (launch.pgid === candidateGroup) {
        this.fail(label, 'server in a group of its own', `a process group other than the candidate's (${candidateGroup})`, `server pid ${launch.pid} in group ${launch.pgid}`);
      }
    }
  }

  /**
   * Kills the candidate's own process outright, as an OOM killer or an operator's kill -9 would:
   * no handler of its can run, and its process group is left alone, so only a mechanism set up
   * in advance (a parent-death signal) can stop the server.
   */
  private async killCandidate(label: string, expect: CloseExpectation): Promise<void> {
    const channel = this.channel;
    if (!channel || channel.pid === undefined) throw new Error(`${label}: no candidate process to kill`);
    // Without /proc every process would look dead, and the step would pass on no evidence.
    if (process.platform !== 'linux' || !existsSync('/proc/self/stat')) {
      throw new UnsupportedEnvironment(`${label}: judging a parent-death signal needs Linux and /proc (this is ${process.platform})`);
    }
    process.kill(channel.pid, 'SIGKILL');
    await channel.exited;
    await this.checkServersAlive(label, expect.servers_alive, "the candidate's death", { withinMs: expect.within_ms });
    // The session is over; closing kills what is left in the candidate's group.
    this.startedReady = false;
    this.channel = undefined;
    await channel.close();
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
    const byName = new Map<string, Tool>();
    const repeated = new Set<string>();
    for (const tool of listing.tools) {
      const name = String(tool.name);
      if (byName.has(name)) repeated.add(name);
      byName.set(name, tool);
    }
    this.offered = byName;
    this.firstOffered ??= byName;
    if (expect.unchanged) this.checkUnchanged(label, byName, this.firstOffered);
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
    for (const [name, hidden] of Object.entries(expect.hidden ?? {})) {
      const schema = byName.get(name)?.inputSchema as Record<string, unknown> | undefined;
      if (!schema) {
        this.fail(label, `schema of ${name}`, `hides ${hidden.join(', ')}`, '(tool not offered)');
        continue;
      }
      const shown = new Set([...Object.keys((schema.properties ?? {}) as object), ...((schema.required ?? []) as string[])]);
      for (const param of hidden) if (shown.has(param)) this.fail(label, `${name} hides ${param}`, 'absent from properties and required', 'shown');
    }
    for (const [name, tool] of byName) {
      // A description cut inside a surrogate pair is malformed whatever the scenario checks.
      if (typeof tool.description === 'string' && !tool.description.isWellFormed()) this.fail(label, `description of ${name}`, 'well-formed Unicode', 'a lone surrogate');
    }
    for (const [name, most] of Object.entries(expect.description_max_chars ?? {})) {
      const text = byName.get(name)?.description;
      const chars = typeof text === 'string' ? [...text].length : 0;
      if (chars > most) this.fail(label, `description length of ${name}`, `at most ${most} characters`, chars);
    }
    for (const [name, banned] of Object.entries(expect.description_excludes ?? {})) {
      const text = String(byName.get(name)?.description ?? '');
      for (const fragment of banned) if (text.includes(fragment)) this.fail(label, `description of ${name} excludes ${JSON.stringify(fragment)}`, 'absent', 'present');
    }
    for (const [name, required] of Object.entries(expect.required ?? {})) {
      const listed = ((byName.get(name)?.inputSchema as Record<string, unknown> | undefined)?.required ?? []) as string[];
      for (const param of required) if (!listed.includes(param)) this.fail(label, `${name} requires ${param}`, 'required', listed);
    }
  }

  /** Every tool of the first listing offered again as the same JSON value, and no other tool. */
  private checkUnchanged(label: string, now: ReadonlyMap<string, Tool>, first: ReadonlyMap<string, Tool>): void {
    for (const [name, tool] of now) {
      const before = first.get(name);
      if (before === undefined) this.fail(label, `listing unchanged`, 'only the tools first offered', `${name} is new`);
      else if (!isDeepStrictEqual(tool, before)) this.fail(label, `${name} unchanged`, losslessText(before).slice(0, 300), losslessText(tool).slice(0, 300));
    }
    for (const name of first.keys()) {
      if (!now.has(name)) this.fail(label, 'listing unchanged', `${name} still offered`, 'withdrawn');
    }
  }

  /** The arguments a call step sends: written out, or made from the schema the agent was shown. */
  private argumentsFor(label: string, step: CallStep): Record<string, unknown> | undefined {
    if (!step.generate) return step.arguments ?? {};
    const schema = this.offered.get(step.tool)?.inputSchema;
    if (!schema || typeof schema !== 'object') {
      this.fail(label, `arguments for ${step.tool}`, 'a schema to generate from', 'the agent was not shown the tool');
      return undefined;
    }
    try {
      // The agent decoded the listing losslessly; the generator and validator want plain numbers.
      const plain = JSON.parse(losslessText(schema)) as Record<string, unknown>;
      return generateArguments(plain, step.generate);
    } catch (error) {
      if (error instanceof GenerationError) throw new Error(`${label}: ${error.message}`);
      throw error;
    }
  }

  private async call(label: string, step: CallStep): Promise<void> {
    const agent = this.requireAgent(label);
    const args = this.argumentsFor(label, step);
    if (args === undefined) return;
    const { expect } = step;
    const callMark: CallMark = { label, serverTool: step.server_tool ?? step.tool, mark: this.ledger.mark(), step, args };
    this.callMarks.push(callMark);
    const meta = step.chain ? { [AGENT_CHAIN_META]: step.chain } : undefined;
    const send = () => agent.callTool(step.tool, args, { ...(meta ? { meta } : {}), ...(expect.within_ms ? { timeoutMs: expect.within_ms } : {}) });
    const answer = expect.memory_growth_max_mib === undefined ? await send() : await this.measured(label, expect.memory_growth_max_mib, send);
    if (expect.agent === 'none') {
      // The call is meant to be still in flight: only a live broker that has not answered meets it.
      if (answer.kind !== 'timeout') this.fail(label, `call in flight after ${expect.within_ms} ms`, 'no answer yet', describe(answer));
      return;
    }
    if (answer.kind === 'closed' || answer.kind === 'timeout') {
      // Answering in time is what a `within_ms` step tests, so silence fails it; elsewhere a
      // silent broker has shown nothing and the scenario is an error. Neither is ever a pass.
      if (expect.within_ms === undefined) throw new CandidateUnresponsive(`${label}: tools/call ${step.tool} ${describe(answer)}`);
      this.fail(label, `answer within ${expect.within_ms} ms`, expect.agent, describe(answer));
      return;
    }
    const observed = callOutcome(answer);
    const met = expect.agent === 'refused' ? observed === 'tool-error' || observed === 'protocol-error' : observed === expect.agent;
    if (!met) this.fail(label, `agent receives ${expect.agent}`, expect.agent, `${observed}: ${answer.kind === 'malformed' ? answer.why : answer.raw.slice(0, 300)}`);
    const code = refusalCode(answer);
    callMark.answer = { code, receipt: receiptOf(answer) };
    if (expect.code !== undefined && code !== expect.code) this.fail(label, 'refusal code', expect.code, code ?? `(none) ${describe(answer)}`);
    const requestId = approvalRequestId(answer);
    if (requestId !== undefined) this.pendingApprovals.set(step.tool, requestId);
    if (expect.answers_like_unknown) await this.compareWithUnknown(label, agent, step.tool, answer);
    this.checkResult(label, answer, expect);
    if (expect.servers_alive !== undefined) await this.checkServersAlive(label, expect.servers_alive, 'the answer');
  }

  /**
   * At most `most` of the servers `records` launched (the whole ledger unless told) alive after
   * `event`, waiting a little: a stopped group takes time to go. A step that sets its own deadline
   * (`withinMs`) is judged as servers stopped within it; otherwise they get DEATH_DEADLINE_MS.
   */
  private async checkServersAlive(
    label: string,
    most: number,
    event: string,
    { withinMs, records = this.ledger.read() }: { withinMs?: number; records?: readonly LedgerRecord[] } = {},
  ): Promise<void> {
    const alive = await survivorsAfter(serverPids(records), withinMs ?? DEATH_DEADLINE_MS);
    if (alive.length <= most) return;
    const pids = `(pids ${alive.join(', ')})`;
    if (withinMs === undefined) this.fail(label, `servers alive after ${event}`, `at most ${most}`, `${alive.length} ${pids}`);
    else this.fail(label, `servers stopped within ${withinMs} ms of ${event}`, `at most ${most} alive`, `${alive.length} alive ${pids}`);
  }

  /** Runs a call while watching the broker's resident memory; the growth goes into the report. */
  private async measured(label: string, mostMib: number, send: () => Promise<Answer>): Promise<Answer> {
    const pid = this.channel?.pid;
    const measurement = pid === undefined ? undefined : await residentGrowthMib(pid, send);
    if (measurement === undefined || measurement.kind === 'unreadable') throw new UnsupportedEnvironment(`${label}: the broker's resident memory cannot be read from /proc`);
    if (measurement.kind === 'died') {
      this.fail(label, 'bounded memory', 'the broker alive while measured', 'it exited during the call');
      return measurement.result;
    }
    this.notes.push(`${label}: broker resident memory grew ${measurement.growthMib.toFixed(1)} MiB (bound ${mostMib} MiB)`);
    if (measurement.growthMib > mostMib) this.fail(label, 'bounded memory', `under ${mostMib} MiB growth`, `${measurement.growthMib.toFixed(1)} MiB`);
    return measurement.result;
  }

  /** What the agent was shown of a result: its text, content types, structure and markers. */
  private checkResult(label: string, answer: Answer, expect: CallStep['expect']): void {
    if (expect.answer_excludes && (answer.kind === 'error' || answer.kind === 'result')) {
      // Decoded first: a value the candidate escaped in JSON is still there for the agent.
      const strings = everyString(parseLossless(answer.raw));
      for (const fragment of expect.answer_excludes ?? []) {
        if (strings.some((text) => text.includes(fragment))) this.fail(label, `answer excludes ${JSON.stringify(fragment)}`, 'absent', 'present');
      }
    }
    if (answer.kind === 'error') this.checkText(label, [answer.error.message], expect);
    if (answer.kind !== 'result') return;
    const blocks = Array.isArray(answer.result.content) ? (answer.result.content as Array<Record<string, unknown>>) : [];
    const texts = blocks.filter((b) => b.type === 'text').map((b) => String(b.text ?? ''));
    const chars = this.checkText(label, texts, expect);
    if (expect.truncated !== undefined) {
      const marker = TRUNCATION_MARKER.exec(texts.at(-1) ?? '');
      if (!expect.truncated && marker) this.fail(label, 'not truncated', 'no truncation marker', marker[0]);
      if (expect.truncated && !marker) this.fail(label, 'truncation marked', 'a truncation marker', `${chars} characters, no marker`);
      if (expect.truncated && marker && Number(marker[1]) !== chars) this.fail(label, 'marker counts what was sent', chars, Number(marker[1]));
    }
    const structuredContent = structured(answer);
    if (expect.already_ran && !(structuredContent?.already_ran === true && structuredContent.retry === false)) {
      this.fail(label, 'says it already ran', '{already_ran: true, retry: false}', structuredContent ?? '(no structuredContent)');
    }
    if (expect.approval_request) {
      const { tool, arguments: wanted } = expect.approval_request;
      if (structuredContent?.tool !== tool) this.fail(label, 'approval request names the tool', tool, structuredContent?.tool ?? '(none)');
      const text = structuredContent?.arguments;
      let shown: unknown;
      try {
        shown = typeof text === 'string' ? parseLossless(text) : undefined;
      } catch {
        shown = undefined;
      }
      if (shown === undefined || !sameJson(shown, wanted)) this.fail(label, 'approval request shows the exact arguments', wanted, text ?? '(none)');
    }
    if (expect.receipt) {
      const receipt = receiptOf(answer);
      for (const [field, value] of Object.entries(expect.receipt)) {
        if (receipt?.[field] !== value) this.fail(label, `receipt ${field}`, value, receipt ? receipt[field] : '(no receipt)');
      }
    }
    const meta = metaOf(answer);
    for (const key of expect.meta_includes ?? []) if (!(key in meta)) this.fail(label, `_meta carries ${key}`, 'present', Object.keys(meta));
    for (const key of expect.meta_excludes ?? []) if (key in meta) this.fail(label, `_meta lacks ${key}`, 'absent', losslessText(meta[key]));
    const types = new Set(blocks.map((b) => String(b.type)));
    for (const type of expect.content_types_absent ?? []) if (types.has(type)) this.fail(label, `no ${type} content`, 'absent', 'present');
    if (expect.structured !== undefined && (structuredContent !== undefined) !== (expect.structured === 'present')) {
      this.fail(label, 'structured content', expect.structured, structuredContent === undefined ? 'absent' : 'present');
    }
  }

  /** The text the agent was shown, against the step's text expectations; returns its length in code points. */
  private checkText(label: string, texts: readonly string[], expect: CallStep['expect']): number {
    const text = texts.join('\n');
    const chars = texts.reduce((sum, t) => sum + [...t].length, 0);
    if (!texts.every((t) => t.isWellFormed())) this.fail(label, 'well-formed text', 'no split code point', 'a lone surrogate');
    for (const fragment of expect.text_includes ?? []) if (!text.includes(fragment)) this.fail(label, `text includes ${JSON.stringify(fragment)}`, 'present', text.slice(0, 300));
    for (const fragment of expect.text_excludes ?? []) if (text.includes(fragment)) this.fail(label, `text excludes ${JSON.stringify(fragment)}`, 'absent', 'present');
    if (expect.text_max_chars !== undefined && chars > expect.text_max_chars) this.fail(label, 'text length', `at most ${expect.text_max_chars} characters`, chars);
    const raw = expect.text_escaped ? firstUnescaped(texts) : undefined;
    if (raw !== undefined) this.fail(label, 'text escaped', 'no raw control, bidi or zero-width characters', JSON.stringify(raw));
    return chars;
  }

  /** A hidden tool must be refused exactly as a name that exists nowhere: same code, same words. */
  private async compareWithUnknown(label: string, agent: AgentClient, tool: string, answer: Answer): Promise<void> {
    const nowhere = await agent.callTool(NOWHERE_TOOL, {});
    if (nowhere.kind === 'closed' || nowhere.kind === 'timeout') throw new CandidateUnresponsive(`${label}: tools/call ${NOWHERE_TOOL} ${describe(nowhere)}`);
    const shape = (a: Answer, name: string) =>
      a.kind === 'error' ? { code: a.error.code, message: a.error.message.split(name).join('<name>') } : { answer: describe(a) };
    const hidden = shape(answer, tool);
    const absent = shape(nowhere, NOWHERE_TOOL);
    if (!isDeepStrictEqual(hidden, absent)) this.fail(label, `${tool} answers like an unknown tool`, absent, hidden);
  }

  private async approve(label: string, step: ApproveStep): Promise<void> {
    const requestId = this.pendingApprovals.get(step.tool);
    if (requestId === undefined) {
      this.fail(label, `approval request for ${step.tool}`, 'an approval_required answer naming a request', 'none was given');
      return;
    }
    if (!this.candidate.approve) throw new Error(`${label}: the candidate declares approvals but has no approve()`);
    await this.candidate.approve(this.spec, { requestId, decision: step.decision, ...(step.expires_at ? { expiresAt: step.expires_at } : {}) });
    this.notes.push(`${label}: operator ${step.decision}d ${requestId}`);
  }

  private async close(label: string, expect: CloseExpectation | undefined): Promise<void> {
    const channel = this.channel;
    if (!channel) return;
    // A broker that died during the session has proved nothing about the calls it "refused".
    if (this.brokerExited && this.startedReady) this.fail(label, 'alive until close', 'the broker serves until the agent closes', 'it had already exited');
    const judge = async (): Promise<void> => {
      if (expect) await this.checkServersAlive(label, expect.servers_alive, 'close', { withinMs: expect.within_ms });
    };
    // Judged before the harness kills anything itself: with endInput, close() waits until the
    // judgement is taken; without it, the judgement runs inside close()'s grace period.
    if (channel.endInput) {
      channel.endInput();
      await judge();
      await channel.close();
    } else {
      await Promise.all([channel.close(), judge()]);
    }
    this.channel = undefined;
  }

  /** Each call step and what it caused on the server, from the ledger read at the end. */
  observedCalls(records: readonly LedgerRecord[]): ObservedCall[] {
    return this.callMarks.map((call, index) => ({
      label: call.label,
      tool: call.step.tool,
      args: call.args,
      received: this.receivedBy(index, records).length,
      answer: call.answer,
    }));
  }

  /** The calls of its tool the server received from a call step until the next step calling it. */
  private receivedBy(index: number, records: readonly LedgerRecord[]): RecvRecord[] {
    const call = this.callMarks[index]!;
    const next = this.callMarks.slice(index + 1).find((later) => later.serverTool === call.serverTool);
    return callsTo(records.slice(call.mark, next?.mark), call.serverTool);
  }

  /** What each call step caused on the server, judged once every process has stopped. */
  callFindings(records: readonly LedgerRecord[]): Finding[] {
    const findings: Finding[] = [];
    this.callMarks.forEach((call, index) => {
      const received = this.receivedBy(index, records);
      const { expect } = call.step;
      const fail = (expectation: string, expected: unknown, observed: unknown) => findings.push({ step: call.label, expectation, expected, observed });
      if (expect.server_received !== undefined && received.length !== expect.server_received) {
        fail(`server receives ${call.serverTool}`, `${expect.server_received} tools/call`, `${received.length} tools/call`);
      }
      if (!expect.server_arguments && !expect.server_arguments_absent) return;
      const first = received[0];
      if (!first) {
        fail(`arguments ${call.serverTool} received`, 'a forwarded call', 'no call reached the server');
        return;
      }
      const args = receivedArguments(first.raw);
      for (const { name, expected, observed } of argumentMismatches(args, expect.server_arguments ?? {})) fail(`server receives ${name}`, expected, observed);
      for (const name of expect.server_arguments_absent ?? []) {
        if (name in args) fail(`server never receives ${name}`, '(absent)', losslessText(args[name]));
      }
    });
    return findings;
  }
}

function callOutcome(answer: Answer): CallOutcome | 'malformed' {
  if (answer.kind === 'error') return 'protocol-error';
  if (answer.kind === 'result') return answer.result.isError === true ? 'tool-error' : 'result';
  return 'malformed';
}

/** A result's `_meta`; empty when it has none, or when the answer is not a result. */
function metaOf(answer: Answer): Record<string, unknown> {
  const meta = answer.kind === 'result' ? answer.result._meta : undefined;
  return meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : {};
}

/** The receipt a result carries in `_meta` (docs/call-path.md), if any. */
function receiptOf(answer: Answer): Record<string, unknown> | undefined {
  const receipt = metaOf(answer)[RECEIPT_META];
  return receipt !== null && typeof receipt === 'object' ? (receipt as Record<string, unknown>) : undefined;
}

function structured(answer: Answer): Record<string, unknown> | undefined {
  if (answer.kind !== 'result') return undefined;
  const content = answer.result.structuredContent;
  return content && typeof content === 'object' ? (content as Record<string, unknown>) : undefined;
}

/** The machine-readable code of a tool error (docs/call-path.md). */
function refusalCode(answer: Answer): string | undefined {
  if (answer.kind !== 'result' || answer.result.isError !== true) return undefined;
  const code = structured(answer)?.code;
  return typeof code === 'string' ? code : undefined;
}

function approvalRequestId(answer: Answer): string | undefined {
  if (refusalCode(answer) !== 'approval_required') return undefined;
  const id = structured(answer)?.request_id;
  return typeof id === 'string' ? id : undefined;
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
