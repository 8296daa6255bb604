// The broker's MCP session with the agent on its own stdin/stdout. The broker answers the
// handshake and the listing itself from what Load decided, and forwards only calls the guards
// allow: first whether the agent may see the tool at all, then whether it may run now.
// Everything is read and written with the broker's own JSON reader and writer, so ids,
// arguments and results pass through exactly as sent. When the server says its tools changed,
// the tools are decided again and the drift guards act on any that drifted; what the agent is
// offered stays what Load decided.

import type { Readable, Writable } from 'node:stream';
import { reviewedContract, type AuditSink } from './audit.js';
import { DEFAULT_DATA_CLASSIFICATION } from '../operator/config.js';
import { RequestTimedOut, ResultOverLimit, ResultTooLarge, ServerGone } from '../errors.js';
import type { Guards } from '../guards/registry.js';
import type { CallContext, CallFindings, CallSubject, DriftResponse, ResultSubject, ServerEnv } from '../guards/types.js';
import { sha256Hex } from '../load/fingerprint.js';
import { canonicalJson } from '../json/canonical.js';
import { injectFixed } from '../load/hidden.js';
import { toolDescriptor } from '../load/tool-descriptor.js';
import { configureStage, inspectOutbound, type Channel, type Outbound, type Stage } from '../inspect/stage.js';
import { BROKER_NAME, BROKER_VERSION, LATEST_PROTOCOL_VERSION, isSupportedProtocolVersion } from './identity.js';
import { ERROR, brokerError, errorLine, parseMessage, resultLine } from '../wire/jsonrpc.js';
import { LineSplitter } from '../wire/lines.js';
import { Outbox } from '../wire/outbox.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { withReceipt } from './receipt.js';
import { afterDispatch, refusal, toolError } from './refusal.js';
import type { Reply, Requester } from '../upstream/connection.js';
import { settlesWithin } from '../upstream/process.js';
import type { AuditDecision, CallFacts, Limits, NonText, Drift, JsonObject, JsonValue, RegisteredTool, Receipt, ServerRequests, ToolRefusal } from '../types.js';
import { DEFAULT_SERVER_REQUESTS } from '../operator/server-requests.js';
import { Relay } from './relay.js';
import type { FeatureSession } from '../features/session.js';

/** The severities of `logging/setLevel` (MCP 2025-11-25 `LoggingLevel`, RFC 5424's). */
const LOG_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The server's notice that its tools changed: the occasion for a rediscovery. */
export const TOOLS_CHANGED = 'notifications/tools/list_changed';

/** How a session decides its tools again when the server says they changed. */
export interface Rediscovery {
  /** Lists and decides the tools again; the registered tools that no longer register. */
  readonly rediscover: () => Promise<readonly Drift[]>;
  readonly closeUpstream: DriftResponse['closeUpstream'];
}

/** One of several servers behind the session: its connection, and how its own tools are decided again. */
export interface SessionServer {
  readonly upstream: Requester;
  readonly rediscovery?: Rediscovery;
  /** Whether the server declared `logging`, so the agent's `logging/setLevel` goes to it. */
  readonly logging?: boolean;
}

/** Where a call names the upstream agents it is made for (docs/call-path.md). */
export const AGENT_CHAIN_META_KEY = 'io.mcp-gauntlet/agent-chain';

export interface SessionOptions {
  readonly tools: readonly RegisteredTool[];
  readonly guards: Pick<Guards, 'visibility' | 'call' | 'result' | 'outbound' | 'drift' | 'rediscovery' | 'serverRequest' | 'serverReply' | 'notification'>;
  readonly context: CallContext;
  /** `callTimeoutMs` is the timeout for a call no registered tool names (registered-calls-only
   * disabled); the caps and bounds apply to every result. */
  readonly limits: Limits;
  /** What the operator placed in the server's environment: never the agent's to read. */
  readonly serverEnv: ServerEnv;
  readonly upstream: Requester;
  /** Whether `upstream`'s server declared `logging` (with several servers, each says so in `servers`). */
  readonly logging?: boolean;
  /**
   * With several servers: each by id. A tool's calls go to its own server's connection, and a
   * server that says its tools changed has only its own decided again; `upstream` and
   * `rediscovery` are then the first server's.
   */
  readonly servers?: ReadonlyMap<string, SessionServer>;
  /** Undefined when the operator keeps no audit trail. */
  readonly audit: AuditSink | undefined;
  readonly send: (line: string) => void;
  /** Undefined, or no drift guard kept: the server's notice that its tools changed is ignored. */
  readonly rediscovery?: Rediscovery;
  /** Resources, prompts and completion; undefined offers none of them. */
  readonly features?: FeatureSession;
  /** What the server may ask of the agent and notify it of; absent, the defaults (none of it). */
  readonly serverRequests?: ServerRequests;
  /** Content the broker cannot inspect as text: withheld (default) or passed on normalised. */
  readonly nonText?: NonText;
  /** The servers' instructions as Load decided them (src/load/instructions.ts); absent, none. */
  readonly instructions?: string;
}

/** What the server starts on its own that the relay judges: its requests and these notifications. */
const RELAYED_NOTIFICATIONS = ['notifications/message', 'notifications/progress', 'notifications/resources/list_changed', 'notifications/prompts/list_changed'];

export class Session {
  private readonly byName: ReadonlyMap<string, RegisteredTool>;
  /** By the server's name: what an effect contract's read-back names. */
  private readonly byServerName: ReadonlyMap<string, RegisteredTool>;
  /** Fixed at Load: the server's later list_changed notices are not followed. */
  private readonly toolList: JsonValue;
  private readonly inFlight = new Set<Promise<void>>();
  /** Set while the tools are being decided again; a call received meanwhile waits for it. */
  private rediscovering: Promise<void> | undefined;
  /** The servers whose next rediscovery is queued and has not begun listing yet. */
  private readonly rediscoveryQueued = new Set<Rediscovery>();
  /** Whether the agent's initialize has been answered: the MCP lifecycle's first exchange. */
  private initialized = false;
  /** What the server starts on its own: its requests to the agent, its notifications. */
  private readonly relay: Relay;
  /** What every message the server chose passes through before the agent sees it. */
  private readonly stage: Stage;
  /** The servers that declared `logging`: where the agent's `logging/setLevel` goes. */
  private readonly logging: readonly Requester[];
  /** Every server behind the session: each one's requests are answered once the agent has said what it offers. */
  private readonly upstreams: readonly Requester[];

  constructor(private readonly options: SessionOptions) {
    this.stage = configureStage(options.guards.outbound, { serverEnv: options.serverEnv, limits: options.limits });
    const { serverRequest, serverReply, notification } = options.guards;
    this.relay = new Relay({
      guards: { serverRequest, serverReply, notification },
      policy: options.serverRequests ?? DEFAULT_SERVER_REQUESTS,
      serverEnv: options.serverEnv,
      send: (line) => options.send(line),
      timeoutMs: options.limits.callTimeoutMs,
    });
    const servers: ReadonlyMap<string, SessionServer> = options.servers ?? new Map([['', { upstream: options.upstream, rediscovery: options.rediscovery, logging: options.logging }]]);
    this.logging = [...servers.values()].filter((server) => server.logging === true).map((server) => server.upstream);
    this.upstreams = [...servers.values()].map((server) => server.upstream);
    for (const { upstream, rediscovery } of servers.values()) {
      for (const method of RELAYED_NOTIFICATIONS) upstream.onNotification(method, (params) => this.relay.notification(method, params));
      if (rediscovery !== undefined && options.guards.drift.length > 0) upstream.onNotification(TOOLS_CHANGED, () => this.toolsChanged(rediscovery));
    }
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.byServerName = new Map(options.tools.map((tool) => [serverKey(tool.server, tool.tool), tool]));
    this.toolList = object([
      [
        'tools',
        {
          kind: 'array',
          items: options.tools
            .filter((tool) => this.visible(tool.name, tool))
            .map(({ name, shown }) => toolDescriptor(name, shown)),
        },
      ],
    ]);
  }

  handleLine(line: string): void {
    const message = parseMessage(line);
    if (message.kind === 'unreadable') {
      this.refuseUnreadable(message.code, message.problem);
      return;
    }
    // Notifications need no answer; an answer settles the broker's own request it answers.
    if (message.kind === 'result' || message.kind === 'error') {
      this.relay.answered(message.id, message.kind === 'result' ? { ok: true, result: message.result } : { ok: false, error: message.error });
      return;
    }
    if (message.kind !== 'request') return;
    const { id, method, params } = message;
    const outOfOrder = this.lifecycleProblem(method);
    if (outOfOrder !== undefined) {
      this.options.send(errorLine(id, brokerError(ERROR.invalidRequest, `Invalid request: ${outOfOrder}`)));
      return;
    }
    switch (method) {
      case 'initialize':
        this.initialized = true;
        this.relay.learnClient(params);
        this.options.send(resultLine(id, initializeResult(params, [...(this.logging.length > 0 ? [['logging', object([])] as const] : []), ...(this.options.features?.capabilities() ?? [])], this.options.instructions)));
        // Only now are the server's requests answered: one it sent before the agent declared
        // its capabilities was held (src/upstream/inbound.ts) and is judged now, after the answer.
        for (const upstream of this.upstreams) upstream.onRequest((method, params) => this.relay.request(method, params));
        return;
      case 'ping':
        this.options.send(resultLine(id, object([])));
        return;
      case 'tools/list':
        this.options.send(resultLine(id, this.toolList));
        return;
      case 'tools/call':
        this.track(id, this.call(id, params));
        return;
      case 'logging/setLevel':
        if (this.logging.length === 0) break;
        this.track(id, this.setLevel(id, params));
        return;
      case 'resources/list':
      case 'resources/templates/list':
      case 'resources/read':
      case 'resources/subscribe':
      case 'resources/unsubscribe':
      case 'prompts/list':
      case 'prompts/get':
      case 'completion/complete':
        if (this.options.features === undefined) break;
        this.track(id, this.feature(id, method, params, this.options.features));
        return;
    }
    this.options.send(errorLine(id, brokerError(ERROR.methodNotFound, `Method not found: ${method}`)));
  }

  /**
   * The MCP lifecycle: initialize comes first and once, and before it only ping is answered. A
   * session is one agent's handshake: what the agent declared (its capabilities, which decide
   * what the server may ask of it) is never replaced midway, and nothing is served before it.
   */
  private lifecycleProblem(method: string): string | undefined {
    if (method === 'ping') return undefined;
    if (method === 'initialize') return this.initialized ? 'the session is already initialized' : undefined;
    return this.initialized ? undefined : `${method} before initialize`;
  }

  /** Keeps a request's work in flight until it is answered; `settled` waits for it. */
  private track(id: JsonValue, work: Promise<void>): void {
    const answered = work.catch(() => {
      // A failure of the broker's own (its state directory or audit trail): nothing more is
      // forwarded, and the agent learns only that the broker failed.
      this.options.send(errorLine(id, brokerError(ERROR.internal, 'Internal error')));
    });
    this.inFlight.add(answered);
    void answered.finally(() => this.inFlight.delete(answered));
  }

  private async feature(id: JsonValue, method: string, params: JsonValue | undefined, features: FeatureSession): Promise<void> {
    const answer = await features.answer(method, params);
    if (answer.ok) {
      this.options.send(resultLine(id, answer.result));
      return;
    }
    if (answer.passOn !== true) {
      this.options.send(errorLine(id, answer.error));
      return;
    }
    // The server's own error, through the outbound stage as a call's is.
    const error = this.outbound(answer.error, 'error');
    const shown = error.ok && error.message.kind === 'object' ? error.message : brokerError(ERROR.upstream, "The server's error is withheld.");
    this.options.send(errorLine(id, shown));
  }

  /**
   * The agent's log level, for every server that declared `logging`: only a level MCP names is
   * sent, and only the level (nothing else of the agent's params). The log messages that follow
   * are judged by the notification guards as every other.
   */
  private async setLevel(id: JsonValue, params: JsonValue | undefined): Promise<void> {
    const level = params?.kind === 'object' ? stringValue(member(params, 'level')) : undefined;
    if (level === undefined || !LOG_LEVELS.includes(level)) {
      this.options.send(errorLine(id, brokerError(ERROR.invalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`)));
      return;
    }
    const { callTimeoutMs } = this.options.limits;
    const replies = await Promise.all(
      this.logging.map((upstream) => upstream.request('logging/setLevel', object([['level', plain(level)]]), callTimeoutMs, 'logging/setLevel').catch(() => undefined)),
    );
    // What a server said in refusing is its own text: the agent learns only that one did.
    const refused = replies.filter((reply) => reply?.ok !== true).length;
    this.options.send(
      refused === 0
        ? resultLine(id, object([]))
        : errorLine(id, brokerError(ERROR.upstream, `${refused} of ${replies.length} server(s) did not accept the log level ${level}`)),
    );
  }

  /** Answers a line that held no readable request; without an id, the answer's id is null. */
  refuseUnreadable(code: number, problem: string): void {
    this.options.send(errorLine(plain(null), brokerError(code, `Invalid message: ${problem}`)));
  }

  /** Resolves once every call already received has been answered. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Decides the tools again, after any rediscovery already running, and lets the drift guards act
   * on those that drifted. Calls received until it ends wait, so none is judged, or forwarded, on
   * the old decision once the server has announced a change.
   */
  private toolsChanged(rediscovery: Rediscovery): void {
    // One still waiting to begin lists after this notice anyway: it answers this notice too.
    const coalesce = this.options.guards.rediscovery.some((guard) => guard.coalesce);
    if (coalesce && this.rediscoveryQueued.has(rediscovery)) return;
    this.rediscoveryQueued.add(rediscovery);
    const previous = this.rediscovering;
    const current = (async () => {
      await previous;
      this.rediscoveryQueued.delete(rediscovery);
      const drifted = await rediscovery.rediscover();
      if (drifted.length === 0) return;
      const response: DriftResponse = { quarantine: this.options.context.quarantine, closeUpstream: rediscovery.closeUpstream };
      for (const guard of this.options.guards.drift) await guard.react(drifted, response);
      for (const { tool, guard, reason } of drifted) {
        if (response.quarantine.heldBy(tool.name) === undefined) continue;
        this.options.audit?.record({
          decision: 'quarantined',
          tool: tool.tool,
          name: tool.name,
          agent: this.options.context.agent ?? null,
          code: null,
          toolExists: null,
          call: null,
          // The reviewed contract the tool no longer matches.
          contract: reviewedContract(tool.pin),
          detail: `${guard}: ${reason}`,
        });
      }
    })().catch(() =>
      // A failure of the broker's own (its audit trail) leaves the decision unmade: no call may go
      // on over a session whose tools could not be decided again.
      rediscovery.closeUpstream('after its tools could not be decided again'),
    );
    this.rediscovering = current;
    void current.finally(() => {
      if (this.rediscovering === current) this.rediscovering = undefined;
    });
  }

  private visible(name: string, tool: RegisteredTool | undefined): boolean {
    return this.options.guards.visibility.every((guard) => guard.visible(name, tool, this.options.context));
  }

  private async call(id: JsonValue, params: JsonValue | undefined): Promise<void> {
    const { send, context, guards } = this.options;
    const name = params?.kind === 'object' ? stringValue(member(params, 'name')) : undefined;
    const sent = params?.kind === 'object' ? member(params, 'arguments') : undefined;
    if (name === undefined || (sent !== undefined && sent.kind !== 'object')) {
      send(errorLine(id, brokerError(ERROR.invalidParams, 'Invalid params: tools/call needs a string name and object arguments')));
      return;
    }
    const tool = this.byName.get(name);
    const args = sent ?? object([]);
    const trail = new CallTrail(this.options.audit, tool, name, args, context.agent ?? null);
    // The call's own timeout: time spent waiting for a rediscovery is taken from it.
    let timeoutMs = tool?.callTimeoutMs ?? this.options.limits.callTimeoutMs;
    if (this.rediscovering !== undefined) {
      const waitFrom = Date.now();
      if (!(await this.decidedWithin(guards.rediscovery.reduce((ms, guard) => Math.min(ms, guard.waitBound(timeoutMs)), Infinity)))) {
        // Nothing was judged on the old decision, and nothing was forwarded.
        this.refuse(id, refusal('tool_timeout', `the server's tools were still being decided again after ${timeoutMs} ms, so ${name} was not sent.`, { timeout_ms: timeoutMs }), trail);
        return;
      }
      timeoutMs = Math.max(1, timeoutMs - (Date.now() - waitFrom));
    }
    if (!this.visible(name, tool)) {
      trail.record('call_refused', { asAsked: true, toolExists: tool !== undefined, detail: 'answered as an unknown tool' });
      // One answer for every name the agent may not see, so the answer tells it nothing.
      send(errorLine(id, brokerError(ERROR.invalidParams, `Unknown tool: ${name}`)));
      return;
    }

    const meta = params?.kind === 'object' ? member(params, '_meta') : undefined;
    const subject: CallSubject = { name, tool, args, chain: meta?.kind === 'object' ? member(meta, AGENT_CHAIN_META_KEY) : undefined };
    const notes: string[] = [];
    for (const guard of guards.call) {
      const verdict = guard.check(subject, context);
      trail.learn(verdict.findings);
      if (verdict.event !== undefined) trail.record(verdict.event.decision, { detail: `request ${verdict.event.requestId}` });
      if (verdict.kind === 'refuse') {
        this.refuse(id, verdict.refusal, trail);
        return;
      }
      if (verdict.note !== undefined) notes.push(verdict.note);
    }

    const fixed = tool?.rule?.fixed ?? [];
    trail.record('allowed', { detail: notes.length === 0 ? null : notes.join('; ') });
    const progressToken = meta?.kind === 'object' ? member(meta, 'progressToken') : undefined;
    await this.dispatch(id, trail, sent === undefined && fixed.length === 0 ? undefined : injectFixed(args, fixed), progressToken, timeoutMs);
  }

  /** Whether every rediscovery queued so far ends within `ms` (unbounded: whenever they end). */
  private async decidedWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.rediscovering !== undefined) {
      const current = this.rediscovering;
      if (!(await settlesWithin(current, deadline - Date.now()))) return false;
      // A later notice may have queued another meanwhile: the call waits for the latest decision.
      if (this.rediscovering === current) return true;
    }
    return true;
  }

  /**
   * Forwards an allowed call under the server's name and answers the agent with the outcome. When
   * the agent asked for progress, the call carries a token of the broker's own while it runs.
   */
  private async dispatch(id: JsonValue, trail: CallTrail, args: JsonValue | undefined, progressToken: JsonValue | undefined, timeoutMs: number): Promise<void> {
    const { send } = this.options;
    const { name, tool } = trail;
    let reply: Reply;
    // The record that allowed the call is on file before the server sees it.
    this.options.audit?.flush();
    const progress = progressToken === undefined ? undefined : this.relay.issueProgress(progressToken);
    try {
      reply = await this.forward(tool?.tool ?? name, tool, args, progress?.token, timeoutMs);
    } catch (err) {
      // The late answer to a timed-out call is dropped by the connection; it never reaches here.
      if (err instanceof RequestTimedOut) {
        this.reject(id, trail, refusal('tool_timeout', `${err.message}.`, { timeout_ms: err.timeoutMs }));
      } else if (err instanceof ResultTooLarge) {
        this.reject(id, trail, afterDispatch('result_too_large', `${err.message}, which was dropped unread.`, { max_bytes: err.maxBytes }));
      } else if (err instanceof ResultOverLimit) {
        this.reject(id, trail, afterDispatch('result_withheld', `${err.message}.`));
      } else if (err instanceof ServerGone) {
        const why = refusal('server_unavailable', `${err.message}.`, { server: err.serverId });
        if (err.dispatched) this.reject(id, trail, why);
        else this.refuse(id, why, trail);
      } else {
        // The connection refused to send it (too many requests in flight).
        trail.record('call_refused', { toolExists: true, detail: (err as Error).message });
        send(errorLine(id, brokerError(ERROR.upstream, (err as Error).message)));
      }
      return;
    } finally {
      progress?.retire();
    }
    if (!reply.ok) {
      const error = this.outbound(reply.error, 'error');
      // The stage keeps an object an object; anything else would be no error to pass on.
      if (!error.ok || error.message.kind !== 'object') {
        this.reject(id, trail, afterDispatch('result_withheld', `its error is withheld: ${error.ok ? 'it is not an error object' : error.problem}.`));
        return;
      }
      trail.record('call_answered', { dispatched: true, detail: 'the server answered with a JSON-RPC error, passed on' });
      send(errorLine(id, error.message));
      return;
    }
    const judged = await this.judgeResult(reply.result, tool, args?.kind === 'object' ? args : object([]));
    if (judged.kind === 'refuse') {
      this.reject(id, trail, judged.refusal);
      return;
    }
    const receipt = {
      tool: name,
      permission: tool?.rule?.permission,
      dataClassification: tool?.rule?.dataClassification ?? DEFAULT_DATA_CLASSIFICATION,
    };
    trail.record('call_answered', { dispatched: true, receipt });
    send(resultLine(id, withReceipt(judged.result, receipt)));
  }

  /** A message the server chose, through the outbound stage as `channel`: what may reach the agent of it. */
  private outbound(message: JsonValue, channel: Channel): Outbound {
    return inspectOutbound(message, channel, this.stage);
  }

  /**
   * One tools/call to the tool's own server, bounded by the tool's timeout (or what is left of it);
   * with the broker's progress token, if any.
   */
  private forward(serverName: string, tool: RegisteredTool | undefined, args: JsonValue | undefined, progressToken?: JsonValue, timeoutMs = tool?.callTimeoutMs ?? this.options.limits.callTimeoutMs): Promise<Reply> {
    const meta = progressToken === undefined ? undefined : object([['progressToken', progressToken]]);
    // A tool no server registered (registered-calls-only disabled) goes to the first server.
    const upstream = (tool?.server === undefined ? undefined : this.options.servers?.get(tool.server)?.upstream) ?? this.options.upstream;
    return upstream.request('tools/call', object([['name', plain(serverName)], ['arguments', args], ['_meta', meta]]), timeoutMs, `tools/call "${serverName}"`);
  }

  /** Runs the result guards in order, the first rejection deciding, then the outbound stage. */
  private async judgeResult(result: JsonValue, tool: RegisteredTool | undefined, args: JsonObject): Promise<{ kind: 'pass'; result: JsonValue } | { kind: 'refuse'; refusal: ToolRefusal }> {
    let subject: ResultSubject = {
      tool,
      args,
      limits: this.options.limits,
      nonText: this.options.nonText ?? 'withhold',
      serverError: false,
      // A read-back names a tool of the same server: another server's tool of that name is not it.
      registered: (serverName) => this.byServerName.get(serverKey(tool?.server, serverName)),
      forward: async (reader, readArgs) => {
        this.options.audit?.flush();
        const reply = await this.forward(reader.tool, reader, readArgs);
        // The refusal quotes the server's message to the agent: as the outbound stage leaves it.
        if (!reply.ok) {
          const error = this.outbound(reply.error, 'error');
          throw new Error(error.ok ? `the server answered with an error: ${messageOf(error.message)}` : `the server's error is withheld: ${error.problem}`);
        }
        return reply.result;
      },
    };
    let current = result;
    for (const guard of this.options.guards.result) {
      const verdict = await guard.check(current, subject);
      if (verdict.kind === 'refuse') return verdict;
      current = verdict.result;
      if (verdict.serverError === true) subject = { ...subject, serverError: true };
    }
    const outbound = this.outbound(current, 'result');
    if (!outbound.ok) return { kind: 'refuse', refusal: afterDispatch('result_withheld', `its result is withheld: ${outbound.problem}.`) };
    return { kind: 'pass', result: outbound.message };
  }

  /** A refusal before dispatch: the server never saw the call. */
  private refuse(id: JsonValue, why: ToolRefusal, trail: CallTrail): void {
    trail.record('call_refused', { code: why.code, toolExists: this.byName.has(trail.name), detail: why.sentence });
    this.options.send(resultLine(id, toolError(why)));
  }

  /** A refusal after dispatch: the call may have run, and the agent gets a refusal instead of the answer. */
  private reject(id: JsonValue, trail: CallTrail, why: ToolRefusal): void {
    trail.record('call_rejected', { code: why.code, dispatched: true, detail: why.sentence });
    this.options.send(resultLine(id, toolError(why)));
  }
}

/**
 * One call's audit records: each says what was asked (the name and the digest of the arguments as
 * the agent sent them), what the guards learned so far (validation, grant), and the decision.
 */
class CallTrail {
  /** Hashed when first recorded: without an audit trail a call's arguments are never hashed. */
  private operation: CallFacts['operation'] | undefined;
  private findings: Required<CallFindings> = { validation: 'not_checked', grant: null };

  constructor(
    private readonly audit: AuditSink | undefined,
    readonly tool: RegisteredTool | undefined,
    readonly name: string,
    private readonly args: JsonObject,
    private readonly agent: string | null,
  ) {}

  learn(findings: CallFindings | undefined): void {
    this.findings = { ...this.findings, ...findings };
  }

  record(
    decision: AuditDecision,
    { asAsked = false, code = null, toolExists = null, dispatched = false, receipt = null, detail = null }: {
      /** Record only the name asked for: the agent may not see the tool, so nothing of it is named. */
      asAsked?: boolean;
      code?: string | null;
      toolExists?: boolean | null;
      dispatched?: boolean;
      receipt?: Receipt | null;
      detail?: string | null;
    },
  ): void {
    if (this.audit === undefined) return;
    this.operation ??= { name: this.name, argumentsSha256: sha256Hex(canonicalJson(this.args)) };
    this.audit.record({
      decision,
      tool: asAsked ? this.name : (this.tool?.tool ?? this.name),
      name: this.name,
      agent: this.agent,
      code,
      toolExists,
      call: { operation: this.operation, ...this.findings, dispatched, receipt },
      contract: asAsked ? null : reviewedContract(this.tool?.pin),
      detail,
    });
  }
}

/** A tool's key among several servers' tools: the same server name on two servers is two tools. */
const serverKey = (server: string | undefined, tool: string): string => `${server ?? ''}\0${tool}`;

/** An error's message as the agent is shown it; empty when it has none. */
function messageOf(error: JsonValue): string {
  return (error.kind === 'object' ? stringValue(member(error, 'message')) : undefined) ?? '';
}

/** `offered` are the capabilities of what the broker offers besides tools. */
function initializeResult(params: JsonValue | undefined, offered: readonly (readonly [string, JsonValue])[], instructions: string | undefined): JsonValue {
  const requested = params?.kind === 'object' ? stringValue(member(params, 'protocolVersion')) : undefined;
  return object([
    ['protocolVersion', plain(requested !== undefined && isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION)],
    ['capabilities', object([['tools', object([])], ...offered])],
    ['serverInfo', plain({ name: BROKER_NAME, version: BROKER_VERSION })],
    ['instructions', instructions === undefined ? undefined : plain(instructions)],
  ]);
}

/** The most bytes of answers left unread by the agent before the broker stops reading from it. */
export const AGENT_QUEUE_BYTES = 4 * 1024 * 1024;

/**
 * Runs the session until the agent closes stdin (or stdout). Calls still in flight then would keep
 * the server alive for as long as their timeouts allow, so the server is stopped at once and each
 * such call is answered with that failure.
 */
export async function runSession(
  input: Readable,
  output: Writable,
  options: Omit<SessionOptions, 'send'> & { stopServer: () => Promise<void>; maxUnreadBytes?: number },
): Promise<void> {
  const maxUnreadBytes = options.maxUnreadBytes ?? AGENT_QUEUE_BYTES;
  let reading = true;
  let writing = true;
  let auditFailed: (() => void) | undefined;
  const outbox = new Outbox(
    (text) => {
      if (!writing) return;
      output.write(text);
      // Paused while the answers were held: read again once the agent has read them.
      if (input.isPaused() && reading) {
        if (output.writableLength < maxUnreadBytes) input.resume();
        else output.once('drain', () => input.resume());
      }
    },
    () => options.audit?.flush(),
    // The trail cannot be written: nothing more may leave, so the session ends here.
    () => {
      writing = false;
      auditFailed?.();
    },
  );
  // An agent that does not read its answers would have the broker hold every one of them: past
  // the bound (answers held for the next write and those the agent has not read) nothing more it
  // sends is read until it has read what is waiting (backpressure). Only the answers of calls
  // already in flight can still be added.
  const send = (line: string) => {
    outbox.push(line);
    if (!input.isPaused() && output.writableLength + outbox.heldLength() >= maxUnreadBytes) input.pause();
  };
  const session = new Session({ ...options, send });
  const lines = new LineSplitter(
    (line) => session.handleLine(line),
    (problem) => session.refuseUnreadable(ERROR.invalidRequest, problem),
  );
  // Once the session is ending, nothing more the agent sends is acted on.
  input.on('data', (chunk: Buffer) => {
    if (reading) lines.push(chunk);
  });
  await new Promise<void>((resolve) => {
    auditFailed = resolve;
    input.once('end', resolve);
    input.once('error', resolve);
    output.once('error', () => {
      writing = false; // the agent stopped reading: nobody is left to answer
      resolve();
    });
  });
  reading = false;
  await Promise.all([options.stopServer(), session.settled()]);
  outbox.flush();
}
