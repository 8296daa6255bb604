import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { AgentClient, type Answer } from '../agent/client.js';
import { BASE_REVISION, type Revision } from '../agent/revisions.js';
import { generateArguments, GenerationError } from '../args/generate.js';
import type { AgentChannel, Candidate, ExitStatus, SessionSpec, UpstreamCommand, UpstreamUrl } from '../candidates/types.js';
import { approvalRequestId, describe } from '../expect/answer.js';
import { triggered } from '../expect/registry.js';
import type { Block, CallFacts, CloseFacts, ExpectOf, FactsOf, Hook, ListFacts, Live, RequestFacts, StartFacts } from '../expect/types.js';
import { losslessText } from '../observe/arguments.js';
import { answered, callsTo, type Ledger } from '../observe/ledger.js';
import { residentGrowthMib } from '../observe/memory.js';
import { SecretWatch } from '../observe/secrets.js';
import type { ReceivedHints } from '../agent/cache-hints.js';
import type { ApproveStep, CallStep, ClientSide, CloseExpectation, ConfigFlaw, HttpStep, ListExpectation, RequestStep, StartExpectation, Step } from '../scenario/types.js';
import { FrontDoorClients } from '../agent/front-door-clients.js';
import { sendRequest } from './request-step.js';
import { offeredParams } from '../candidates/offered-names.js';
import { withFlaw } from './flaws.js';
import { CandidateUnresponsive, UnsupportedEnvironment } from './outcome.js';
import { TranscriptRecorder } from './transcript.js';

/** The `_meta` key that carries the chain of upstream agents (docs/call-path.md). */
const AGENT_CHAIN_META = 'io.mcp-gauntlet/agent-chain';

/** How often the ledger is read while waiting for a call to reach the server. */
const LEDGER_POLL_MS = 20;

/**
 * How long an observation waits past the answer for lines a step's benign checks still lack: a
 * broker on HTTP may send a call's notices on its standalone GET stream, which no answer orders.
 */
export const LATE_LINES_MS = 2_000;

type Tool = Record<string, unknown>;

/** One step's expectations and what the harness observed for them, judged once all has stopped. */
export interface StepRecord<B extends Block = Block> {
  block: B;
  expect: ExpectOf<B>;
  facts: FactsOf[B];
  /**
   * A call that ran out of time while its answer was still arriving: the case is an error all the
   * same, but the harm what had arrived shows is judged (harness/run/judge.ts), and nothing else.
   */
  unfinished?: true;
}

/** How a candidate ended, in words: its exit code or signal, or why it never started. */
function exitText(exit: ExitStatus | null): string {
  if (exit === null) return 'the process is still running';
  if (exit.error !== undefined) return `it could not be started: ${exit.error}`;
  return exit.signal === null ? `it exited with code ${exit.code}` : `it was killed by ${exit.signal}`;
}

/** Settles with `undefined` after `ms`, for bounding a wait without holding the process open. */
const after = (ms: number): Promise<undefined> => new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());

/**
 * Drives one scenario's steps against one candidate, and records for each step what the harness
 * observed. It judges nothing: the expectation modules do, over these records, once every process
 * has stopped (harness/run/judge.ts).
 */
export class ScenarioSession {
  channel: AgentChannel | undefined;
  /** The latest channel, kept after it closed: its stderr tail goes into a failing case. */
  lastChannel: AgentChannel | undefined;
  agent: AgentClient | undefined;
  /** Every agent the scenario's starts opened, in order: what each received is judged at the end. */
  private readonly agents: AgentClient[] = [];
  startedReady = false;
  /** Set as soon as the candidate's process goes away, to tell a dead broker from a live one. */
  brokerExited = false;
  readonly notes: string[] = [];
  /** Every step's expectations with its observations, in step order. */
  readonly steps: StepRecord[] = [];
  /** Every call step's observations, in order: what the audit checks and call bounds read. */
  readonly calls: CallFacts[] = [];
  /** Every line the agent sent and received, by step, for the report. */
  readonly transcript = new TranscriptRecorder();
  /** The tools the agent was last shown, by name: generated arguments follow their schemas. */
  private offered = new Map<string, Tool>();
  /** The tools of the session's first listing, by name: what an `unchanged` listing must repeat. */
  private firstOffered: Map<string, Tool> | undefined;
  /** Why the latest start gave no session, for the steps that needed one. */
  private noSession = 'no start yet';
  /** Where the latest start began in the ledger. */
  private sessionMark = 0;
  /** The latest approval request id the agent was told about, per tool. */
  private readonly pendingApprovals = new Map<string, string>();
  /** The agent's side of server-initiated requests: the scenario's `client`. */
  clientSide: ClientSide | undefined;
  /** The MCP revision the agent speaks to the candidate: the case's. */
  revision: Revision = BASE_REVISION;
  /** The operator's secrets, looked for in every line the agent and the front-door clients receive. */
  secrets = new SecretWatch([]);
  /** The label of the step running: a line that arrives is seen during it. */
  private label = '';
  /** The clients of `http` steps, for the front door of the latest start. */
  private frontDoorClients: FrontDoorClients | undefined;
  /**
   * The latest call or request step, whose `others` are still growing: every line the agent
   * receives belongs to the step that talked to the broker last, until the next such step or the
   * session's end (`closeWindow`). Nothing that reached the agent is left unjudged, and no line is
   * judged twice.
   */
  private window: { facts: { others: string[] }; agent: AgentClient; from: number } | undefined;

  constructor(
    readonly candidate: Candidate,
    /** The adapter hooks the candidate offers. */
    readonly hooks: ReadonlySet<Hook>,
    readonly spec: SessionSpec,
    readonly ledger: Ledger,
    readonly controlFile: string,
    readonly stepTimeoutMs: number,
    /** How to start another catalogue server, for a pin step that names one. */
    readonly upstreamOf: (catalogue: string) => UpstreamCommand | UpstreamUrl,
  ) {}

  async run(step: Step, index: number): Promise<void> {
    const label = `${index + 1}:${Object.keys(step)[0]}`;
    this.label = label;
    this.transcript.enter(label, this.ledger.mark());
    if ('pin' in step) await this.pin(label, step.pin?.server);
    else if ('phase' in step) await this.switchPhase(step.phase);
    else if ('start' in step) await this.start(label, step.start.expect, step.start.agent, step.start.flaw);
    else if ('kill_candidate' in step) await this.killCandidate(label, step.kill_candidate.expect);
    else if ('list' in step) await this.list(label, step.list.expect);
    else if ('call' in step) await this.call(label, step.call);
    else if ('request' in step) await this.request(label, step.request);
    else if ('approve' in step) await this.approve(label, step.approve);
    else if ('http' in step) await this.http(label, step.http);
    else await this.close(label, step.close?.expect);
  }

  /** Ends the open step's window: its `others` are every line from its start until now. */
  closeWindow(): void {
    const window = this.window;
    if (!window) return;
    window.facts.others = window.agent.unsolicited.slice(window.from);
    this.window = undefined;
  }

  /** Opens a window for the step that talks to the broker next, from the line count now. */
  private openWindow(agent: AgentClient, facts: { others: string[] }): number {
    this.closeWindow();
    const from = agent.unsolicited.length;
    this.window = { facts, agent, from };
    return from;
  }

  /** What the expectation modules' live observations may use. */
  private live(): Live {
    const window = this.window;
    return {
      candidate: this.candidate,
      spec: this.spec,
      records: () => this.ledger.read(),
      lateLines: async (enough) => {
        if (!window) return;
        await window.agent.untilUnsolicited(window.from, enough, LATE_LINES_MS);
        window.facts.others = window.agent.unsolicited.slice(window.from);
      },
      // Named as the candidate offers what it names, as every step's own request is.
      callTool: (name) => this.requireAgent('observation').callTool(this.candidate.names?.offered(name) ?? name, {}),
      request: (method, params) => this.requireAgent('observation').request(method, offeredParams(this.candidate.names, method, params)),
      ...(this.frontDoorClients === undefined ? {} : { agentSessionAlive: () => this.frontDoorClients!.agentAlive() }),
    };
  }

  /** One raw exchange with the candidate's front door, by a client of the step's naming (harness/agent/front-door-clients.ts). */
  private async http(label: string, step: HttpStep): Promise<void> {
    this.requireAgent(label);
    const door = this.channel?.frontDoor;
    if (door === undefined) throw new Error(`${label}: the candidate's channel is not an HTTP front door the harness can reach`);
    if (this.frontDoorClients?.door !== door) this.frontDoorClients = new FrontDoorClients(door, this.stepTimeoutMs, this.revision);
    const mark = this.ledger.mark();
    const together = step.together === undefined ? undefined : await this.frontDoorClients.together({ ...step, together: step.together });
    const byClient = together ?? { [step.client]: await this.frontDoorClients.run(step) };
    for (const [client, exchanges] of Object.entries(byClient)) {
      for (const exchange of exchanges) this.secrets.see(exchange.body, label);
      this.notes.push(`${label}: ${client}: ${exchanges.map((exchange) => `${exchange.what} → ${exchange.status ?? 'no response'}`).join(', ')}`);
    }
    await this.record('http', step.expect, { label, mark, end: mark, step, exchanges: byClient[step.client]!, ...(together === undefined ? {} : { together }) });
  }

  /** Takes the live observations the step's expectations ask for, then keeps the step for judging. */
  private async record<B extends Block>(block: B, expect: ExpectOf<B>, facts: FactsOf[B]): Promise<void> {
    for (const module of triggered(block, expect)) {
      // A check the candidate has no hook for is not taken (harness/run/judge.ts says so).
      if (module.hook === undefined || this.hooks.has(module.hook)) await module.observe?.(expect, facts, this.live());
    }
    (facts as { end: number }).end = this.ledger.mark();
    // Kept only once every observation was taken: a step whose observation failed is never judged.
    this.steps.push({ block, expect, facts } as unknown as StepRecord);
  }

  /**
   * A step whose time ran out while some of an answer had arrived, or after the server answered
   * and nothing reached the agent: what came reached the agent, so it is kept for the harm it
   * shows, and a dropped answer for the benign use it broke (harness/expect/delivered.ts).
   * Nothing more is asked of a broker that stopped answering.
   */
  private recordUnfinished<B extends 'list' | 'call' | 'request'>(block: B, expect: ExpectOf<B>, facts: FactsOf[B]): void {
    facts.end = this.ledger.mark();
    this.steps.push({ block, expect, facts, unfinished: true } as unknown as StepRecord);
  }

  /**
   * For a step whose time ran out with nothing at the agent: the server's answer to its request,
   * in words, when the ledger shows one since `mark`. The broker had it to pass on and did not.
   */
  private undelivered(mark: number, method: string, tool?: string): string | undefined {
    const found = answered(this.ledger.read().slice(mark), method, tool);
    if (found === undefined) return undefined;
    return `the server answered ${method}${tool === undefined ? '' : ` ${tool}`} (${found.reply.bytes} bytes) and the agent received nothing within ${this.stepTimeoutMs} ms`;
  }

  /** The scenario's own expectations, observed once the candidate has closed. */
  async recordEnd(expect: ExpectOf<'scenario'> | undefined, canary: FactsOf['scenario']['canary']): Promise<void> {
    const credential = this.channel?.frontDoor?.credential;
    await this.record('scenario', expect ?? {}, { label: 'end', calls: this.calls, canary, secrets: this.secrets.sightings, cacheHints: this.cacheHints(), ...(credential === undefined ? {} : { frontDoorCredential: credential.value }) });
  }

  /** The caching hints of every result every agent of the scenario received. */
  private cacheHints(): ReceivedHints[] {
    return this.agents.flatMap((agent) => agent.hints);
  }

  /**
   * For a scenario that ended in an error, what reached the agent all the same: the scenario's
   * own checks need observations of a broker that may be gone, but a secret it was sent is harm.
   */
  recordEndUnfinished(canary: FactsOf['scenario']['canary']): void {
    this.steps.push({ block: 'scenario', expect: {}, facts: { label: 'end', calls: this.calls, canary, secrets: this.secrets.sightings, cacheHints: this.cacheHints() }, unfinished: true });
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
    // Cut off by the harness's own bound, a pin has reviewed nothing: going on would start the
    // broker as after a refusal (unpinned), and judge a slow machine as the broker's choice.
    if (outcome.timedOut) throw new CandidateUnresponsive(`${label}: the candidate's ${outcome.detail}`);
    // A pin refusal is the broker's own account, so it decides nothing; the later steps observe.
    this.notes.push(`${label}: pin ${outcome.ok ? 'succeeded' : 'was refused'} (${outcome.detail})`);
  }

  /** How the candidate ended, waiting at most the step timeout; null when it is still running. */
  private async exitWithin(channel: AgentChannel): Promise<ExitStatus | null> {
    return (await Promise.race([channel.exited, after(this.stepTimeoutMs)])) ?? null;
  }

  private async start(label: string, expect: StartExpectation, agent: string | undefined, flaw: ConfigFlaw | undefined): Promise<void> {
    // A start after a refused one: whatever the refused one left is gone first.
    await this.channel?.close();
    this.closeWindow();
    const mark = this.ledger.mark();
    this.sessionMark = mark;
    if (agent !== undefined) this.spec.agent = agent;
    // The flaw is for this start only: a later pin or start sees the operator's files as written.
    const channel = this.transcript.tap(await this.candidate.start(flaw === undefined ? this.spec : { ...this.spec, ...withFlaw(this.spec.operator, flaw) }));
    channel.onLine((line) => this.secrets.see(line, this.label));
    this.channel = channel;
    this.lastChannel = channel;
    this.brokerExited = false;
    this.startedReady = false;
    this.firstOffered = undefined;
    void channel.exited.then(() => {
      this.brokerExited = true;
    });
    this.agent = new AgentClient(channel, this.stepTimeoutMs, this.clientSide, this.revision);
    this.agents.push(this.agent);
    const handshake = this.agent.handshakeMethod;
    const answer = await this.agent.handshake(expect.within_ms);
    // As for calls: a step about answering in time fails on silence; elsewhere silence is an error.
    // A candidate waiting for the user to sign in (OAuth) may hold initialize for as long as that takes.
    if (answer.kind === 'timeout' && expect.within_ms === undefined && expect.outcome !== 'signing-in') {
      throw new CandidateUnresponsive(`${label}: the candidate did not answer ${handshake} within ${this.stepTimeoutMs} ms`);
    }
    this.startedReady = answer.kind === 'result';
    // A 2026-07-28 agent hears of list changes only on a stream it opens (harness/agent/listen.ts);
    // over stdio, where the stream shares the channel. An HTTP front door would stream it on the
    // POST's own response, which the agent's HTTP channel bounds as every request's.
    // Not toward a server reached by URL: the kit streams a listen there on the POST's response and
    // leaves it silent, so the agent would wait out the start bound for an acknowledgment no one sends.
    const byUrl = [this.spec.upstream, ...(this.spec.servers ?? []).map((named) => named.upstream)].some((upstream) => 'url' in upstream);
    if (this.startedReady && handshake === 'server/discover' && this.spec.agentHttp === undefined && !byUrl) this.notes.push(`${label}: subscriptions/listen ${await this.agent.listen(expect.within_ms)}`);
    const facts: StartFacts = { label, mark, end: mark, answer, canExplain: this.candidate.startRefusal !== undefined, pgid: channel.pid };
    // A closed channel has an exit to tell: read once, for the refusal and for later steps' errors.
    if (answer.kind === 'closed') facts.exit = await this.exitWithin(channel);
    if (!this.startedReady) this.noSession = facts.exit ? `the candidate's channel closed during ${handshake} (${exitText(facts.exit)})` : `the start gave ${describe(answer)}`;
    if (!this.startedReady && answer.kind !== 'timeout' && expect.outcome !== 'ready') await this.refusal(facts, expect);
    await this.record('start', expect, facts);
  }

  /**
   * What a candidate that did not serve did next. One refusing before it reached the server must
   * stop, and is closed so everything it wrote on its way out is there for its adapter to read;
   * one whose channel closed is asked why it exited. The reason comes from the adapter's
   * `startRefusal`, a crash gives none.
   */
  private async refusal(facts: StartFacts, expect: StartExpectation): Promise<void> {
    const channel = this.channel!;
    const before = expect.outcome === 'refused-before-launch' || expect.outcome === 'refused-before-connect';
    if (!before && facts.answer.kind !== 'closed') return;
    facts.exit ??= await this.exitWithin(channel);
    await channel.close();
    if (facts.exit === null) return;
    const reason = await this.candidate.startRefusal?.(this.spec, facts.exit);
    if (reason === undefined) return;
    facts.refusal = reason;
    this.notes.push(`${facts.label}: refused: ${reason}`);
    // The reason goes to the operator's terminal and logs, and on into bug reports: a secret in it is out.
    this.secrets.see(reason, facts.label, "the broker's reason for refusing to start");
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
    const mark = this.ledger.mark();
    process.kill(channel.pid, 'SIGKILL');
    await channel.exited;
    await this.record('kill_candidate', expect, { label, mark, end: mark, diedBeforeClose: false } satisfies CloseFacts);
    // The session is over; closing kills what is left in the candidate's group.
    this.startedReady = false;
    this.channel = undefined;
    await channel.close();
    this.closeWindow();
  }

  private requireAgent(label: string): AgentClient {
    if (!this.agent || !this.startedReady) throw new CandidateUnresponsive(`${label}: no session to use: ${this.noSession}`);
    return this.agent;
  }

  private async list(label: string, expect: ListExpectation): Promise<void> {
    const mark = this.ledger.mark();
    const listing = await this.requireAgent(label).listTools();
    const failure = listing.failure;
    const names = this.candidate.names;
    const byName = new Map<string, Tool>(listing.tools.map((tool) => [names?.scenario(String(tool.name)) ?? String(tool.name), tool]));
    const facts: ListFacts = { label, mark, end: mark, tools: listing.tools, byName, first: this.firstOffered ?? byName, sessionMark: this.sessionMark, ...(failure ? { failure } : {}) };
    if (failure?.kind === 'timeout') facts.undelivered = this.undelivered(mark, 'tools/list');
    if (facts.undelivered !== undefined) this.recordUnfinished('list', expect, facts);
    if (failure?.kind === 'closed' || failure?.kind === 'timeout') throw new CandidateUnresponsive(`${label}: tools/list ${describe(failure)}`);
    this.offered = byName;
    this.firstOffered ??= byName;
    await this.record('list', expect, facts);
  }

  /** The arguments a call step sends: written out, or made from the schema the agent was shown. */
  private argumentsFor(label: string, step: CallStep): Record<string, unknown> {
    if (!step.generate) return step.arguments ?? {};
    const schema = this.offered.get(step.tool)?.inputSchema;
    // Not shown the tool, the agent has nothing to make arguments from: the listing's checks say why.
    if (!schema || typeof schema !== 'object') throw new CandidateUnresponsive(`${label}: ${step.tool} was not offered, so no arguments can be made from its schema`);
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
    const { expect } = step;
    const serverTool = step.server_tool ?? step.tool;
    const mark = this.ledger.mark();
    const calledAs = this.candidate.names?.offered(step.tool) ?? step.tool;
    const facts: CallFacts = { label, mark, end: mark, step, calledAs, serverTool, args, answer: { kind: 'timeout' }, others: [], next: undefined };
    const unsolicited = this.openWindow(agent, facts);
    const meta =
      step.chain || step.progress_token
        ? { ...(step.chain ? { [AGENT_CHAIN_META]: step.chain } : {}), ...(step.progress_token ? { progressToken: step.progress_token } : {}) }
        : undefined;
    const timeoutMs = expect.within_ms ?? this.stepTimeoutMs;
    if (step.flood !== undefined) {
      // A peer that keeps calling: every flood call is sent before the step's own, none awaited.
      const padded = { ...args, [step.flood.argument]: 'x'.repeat(step.flood.padding_chars) };
      for (let i = 0; i < step.flood.calls; i++) void agent.callTool(calledAs, padded, { timeoutMs: this.stepTimeoutMs });
      this.notes.push(`${label}: sent ${step.flood.calls} calls of ${step.tool} first, unawaited`);
    }
    const answering = agent.callTool(calledAs, args, { ...(meta ? { meta } : {}), ...(step.retry ? { retry: step.retry } : {}), ...(step.cancel_task ? { cancelTask: true } : {}), timeoutMs: expect.agent === 'none' ? this.stepTimeoutMs : timeoutMs });
    if (expect.agent === 'none') {
      facts.inFlight = await this.inFlight(answering, mark, serverTool);
    } else {
      facts.answer = await this.answered(label, facts, answering);
      // What had come of an answer still arriving when the time ran out reached the agent all the same.
      const arrived = facts.answer.kind === 'timeout' ? agent.arriving() : '';
      if (arrived !== '') facts.answer = { kind: 'timeout', raw: arrived };
      // A dead or silent broker has shown nothing: an error, never a pass. Only a step about
      // answering in time (`within_ms`) judges silence or a closed channel, as a failure.
      if (expect.within_ms === undefined && facts.answer.kind === 'closed') {
        throw new CandidateUnresponsive(`${label}: tools/call ${step.tool} ${describe(facts.answer)} (${exitText(await this.exitWithin(this.channel!))})`);
      }
      if (expect.within_ms === undefined && facts.answer.kind === 'timeout') {
        if (arrived === '') facts.undelivered = this.undelivered(mark, 'tools/call', serverTool);
        if (arrived !== '' || facts.undelivered !== undefined) {
          facts.others = agent.unsolicited.slice(unsolicited);
          this.recordUnfinished('call', expect, facts);
        }
        throw new CandidateUnresponsive(`${label}: tools/call ${step.tool} ${describe(facts.answer)}`);
      }
    }
    // What came so far, for the observations; the window adds what comes until the next step.
    facts.others = agent.unsolicited.slice(unsolicited);
    const requestId = approvalRequestId(facts.answer);
    if (requestId !== undefined) this.pendingApprovals.set(step.tool, requestId);
    this.calls.push(facts);
    await this.record('call', expect, facts);
  }

  /** Any request but a tool's; a dead or silent broker has shown nothing, which is an error. */
  private async request(label: string, step: RequestStep): Promise<void> {
    const agent = this.requireAgent(label);
    const mark = this.ledger.mark();
    const facts: RequestFacts = { label, mark, end: mark, step, answer: { kind: 'timeout' }, others: [], sessionMark: this.sessionMark };
    const unsolicited = this.openWindow(agent, facts);
    const { answer, items } = await sendRequest(agent, step, step.expect.within_ms ?? this.stepTimeoutMs, this.candidate.names);
    // Only a step about answering in time judges silence or a closed channel, as a failure.
    const judgedSilent = step.expect.within_ms !== undefined;
    if (answer.kind === 'timeout' && !judgedSilent) facts.undelivered = this.undelivered(mark, step.method);
    if (facts.undelivered !== undefined) {
      facts.others = agent.unsolicited.slice(unsolicited);
      this.recordUnfinished('request', step.expect, facts);
    }
    if ((answer.kind === 'closed' || answer.kind === 'timeout') && !judgedSilent) throw new CandidateUnresponsive(`${label}: ${step.method} ${describe(answer)}`);
    facts.answer = answer;
    if (items) facts.items = items;
    facts.others = agent.unsolicited.slice(unsolicited);
    await this.record('request', step.expect, facts);
  }

  /** The answer, with the candidate's memory measured across the call when the step bounds it. */
  private async answered(label: string, facts: CallFacts, answering: Promise<Answer>): Promise<Answer> {
    const bound = facts.step.expect.memory_growth_max_mib;
    if (bound === undefined) return answering;
    const pid = this.channel?.pid;
    const measurement = pid === undefined ? ({ kind: 'unreadable' } as const) : await residentGrowthMib(pid, () => answering);
    if (measurement.kind === 'unreadable') throw new UnsupportedEnvironment(`${label}: the broker's resident memory cannot be read from /proc`);
    // A candidate that died while measured fails the bound (harness/expect/call/memory-growth.ts).
    facts.memory = measurement.kind === 'died' ? { kind: 'died' } : { kind: 'measured', growthMib: measurement.growthMib };
    if (measurement.kind === 'measured') this.notes.push(`${label}: candidate's resident memory grew ${measurement.growthMib.toFixed(1)} MiB (bound ${bound} MiB)`);
    return measurement.result;
  }

  /**
   * A call meant to be still in flight: whether the ledger shows the server received it while
   * the agent still had no answer, waiting at most the step timeout. No deadline of the scenario's
   * decides it, so a broker slower than any deadline cannot pass by being slow.
   */
  private async inFlight(answering: Promise<Answer>, mark: number, serverTool: string): Promise<{ reached: boolean; answeredFirst: boolean }> {
    let answered = false;
    void answering.then(() => {
      answered = true;
    });
    const deadline = Date.now() + this.stepTimeoutMs;
    while (Date.now() < deadline) {
      // Read before the answer is looked at: an answer that came with the call still counts first.
      const reached = callsTo(this.ledger.read().slice(mark), serverTool).length > 0;
      if (answered) return { reached, answeredFirst: true };
      if (reached) return { reached, answeredFirst: false };
      await after(LEDGER_POLL_MS);
    }
    return { reached: false, answeredFirst: answered };
  }

  private async approve(label: string, step: ApproveStep): Promise<void> {
    const requestId = this.pendingApprovals.get(step.tool);
    if (requestId === undefined) {
      // The call that should have been held was answered otherwise: its own checks say how, and
      // the steps after this one judge what follows from no decision.
      this.notes.push(`${label}: no approval request for ${step.tool} to decide (the candidate asked for none)`);
      return;
    }
    if (!this.candidate.approve) throw new Error(`${label}: the candidate has no approve() hook`);
    await this.candidate.approve(this.spec, { requestId, decision: step.decision, ...(step.expires_at ? { expiresAt: step.expires_at } : {}) });
    this.notes.push(`${label}: operator ${step.decision}d ${requestId}`);
  }

  private async close(label: string, expect: CloseExpectation | undefined): Promise<void> {
    const channel = this.channel;
    if (!channel) return;
    const mark = this.ledger.mark();
    const facts: CloseFacts = { label, mark, end: mark, diedBeforeClose: this.brokerExited && this.startedReady };
    // Judged before the harness kills anything itself: with endInput, close() waits until the
    // observation is taken; without it, the observation runs inside close()'s grace period.
    if (channel.endInput) {
      channel.endInput();
      await this.record('close', expect ?? {}, facts);
      await channel.close();
    } else {
      const closing = channel.close();
      await this.record('close', expect ?? {}, facts);
      await closing;
    }
    // Closing drained what the broker still sent (the GET stream ends with the session).
    this.closeWindow();
    this.channel = undefined;
  }
}
