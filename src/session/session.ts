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
import { BROKER_NAME, BROKER_VERSION, LATEST_PROTOCOL_VERSION, SERVED_VERSIONS, isSupportedProtocolVersion } from './identity.js';
import { ERROR, brokerError, errorLine, notificationLine, parseMessage } from '../wire/jsonrpc.js';
import { LOG_LEVELS, META, RESULT_TYPE, readRequestRevision, requestMeta, resultTypeOf, unsupportedVersion, withoutMembers } from '../wire/revision.js';
import { answerTo, type Answer } from './answer.js';
import { InputHandles, type InputStates, MAX_ROUNDS, readInputRequired, RelayedStates, type InputRequired, type Redeemed, type Shown } from './input-required.js';
import { NO_CAPABILITIES, readCapabilities } from '../operator/client-capabilities.js';
import { LineSplitter } from '../wire/lines.js';
import { Outbox } from '../wire/outbox.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { withReceipt } from './receipt.js';
import { withMembers } from '../json/members.js';
import { afterDispatch, refusal, toolError } from './refusal.js';
import type { Reply, Requester } from '../upstream/connection.js';
import { settlesWithin } from '../upstream/process.js';
import type { AuditDecision, CallFacts, Limits, NonText, Drift, JsonObject, JsonValue, RegisteredTool, Receipt, ServerRequests, ToolRefusal } from '../types.js';
import { DEFAULT_SERVER_REQUESTS } from '../operator/server-requests.js';
import { Relay } from './relay.js';
import { declaresTasks, namedTask, RelayedTasks, type TaskBinding, TaskHandles, TASK_METHODS, taskShape, type TaskTable } from './tasks.js';
import { PerRequestUpstream } from '../upstream/per-request.js';
import { AgentStreams, LISTEN, onStream, withoutServerTag } from './listeners.js';
import type { FeatureSession } from '../features/session.js';

/** MCP 2025-11-25's code for a resource not found, which 2026-07-28 replaced with -32602. */
const RESOURCE_NOT_FOUND = -32002;

/** A number's literal; undefined for anything else. */
const numberText = (value: JsonValue | undefined): string | undefined => (value?.kind === 'number' ? value.text : undefined);

/** The methods MCP 2026-07-28 removed: unknown methods in a request of that revision. */
const REMOVED_PER_REQUEST = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** The `_meta` members by which an agent speaks for itself in a 2026-07-28 request: the broker speaks for itself to the server. */
const AGENT_DECLARATIONS = [META.protocolVersion, META.clientCapabilities, META.clientInfo];

/** An allowed call as it goes to the server. */
interface CallToSend {
  /** The arguments the server is sent (the operator's fixed values injected); undefined, none. */
  readonly args: JsonValue | undefined;
  readonly progressToken: JsonValue | undefined;
  readonly timeoutMs: number;
  /** A 2026-07-28 agent's retry, redeemed. */
  readonly retry: Extract<Redeemed, { kind: 'retry' }> | undefined;
  /** The agent declared the tasks extension for this call (2026-07-28): the server may answer with a task. */
  readonly tasks?: boolean;
}

/** What a retry of a multi round-trip call carries to the server. */
interface UpstreamInput {
  readonly responses: JsonObject;
  readonly requestState: string | undefined;
}

interface ForwardExtra {
  readonly progressToken?: JsonValue;
  readonly logLevel?: string;
  readonly input?: UpstreamInput;
  /** Declare the tasks extension to the server: the agent declared it for this call. */
  readonly tasks?: boolean;
}

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
  readonly guards: Pick<Guards, 'visibility' | 'call' | 'result' | 'outbound' | 'drift' | 'rediscovery' | 'serverRequest' | 'serverReply' | 'notification' | 'inputState' | 'discover' | 'cacheHints' | 'task'>;
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
  /**
   * The caching hints the (first) server gave its tool listing, as written: the agent's listing
   * carries them only with cache-hints-private disabled, which relays a result's own hints.
   */
  readonly toolListHints?: readonly (readonly [string, JsonValue])[];
  /** The multi round-trip handles this session shares with others (the front door's, per credential); absent, its own. */
  readonly inputs?: InputHandles;
  /**
   * Whether a 2026-07-28 agent may open subscriptions/listen streams (default: yes, on stdio, where
   * they share the channel). The front door answers each POST once and has no stream of its own
   * for a session in that revision: there a listen is an unknown method, as before it was served.
   */
  readonly subscriptions?: boolean;
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
  /** The states of this session's multi round-trip calls (src/session/input-required.ts). */
  private readonly inputs: InputStates;
  /** The tasks servers made of this session's calls, by the handle the agent was shown (src/session/tasks.ts). */
  private readonly tasks: TaskTable;
  /** Whether a 2026-07-28 request came before any initialize: the agent speaks that revision (refuseServerRequests). */
  private perRequestAgent = false;
  /** The log levels 2026-07-28 requests in flight asked for, each as often as asked. */
  private readonly logLevels: string[] = [];
  /** The subscriptions/listen streams a 2026-07-28 agent opened: where its list-change notices go. */
  private readonly streams = new AgentStreams();

  constructor(private readonly options: SessionOptions) {
    this.stage = configureStage(options.guards.outbound, { serverEnv: options.serverEnv, limits: options.limits });
    // request-state-bound binds each state to its call (shared handles, the front door's, or the session's own); without it states are relayed.
    this.inputs = options.guards.inputState.length === 0 ? new RelayedStates() : (options.inputs ?? new InputHandles());
    this.tasks = options.guards.task.length === 0 ? new RelayedTasks(options.upstream) : new TaskHandles();
    const { serverRequest, serverReply, notification } = options.guards;
    this.relay = new Relay({
      guards: { serverRequest, serverReply, notification },
      policy: options.serverRequests ?? DEFAULT_SERVER_REQUESTS,
      serverEnv: options.serverEnv,
      send: (line) => options.send(line),
      timeoutMs: options.limits.callTimeoutMs,
      wants: (method, params) => this.wants(method, params),
      deliver: (method, params) => this.deliver(method, params),
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
      ...(options.toolListHints ?? []),
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
    // The one notification of the agent's the broker acts on: a stream it closes (stdio's way).
    if (message.kind === 'notification' && message.method === 'notifications/cancelled') this.streams.cancel(message.params);
    if (message.kind !== 'request') return;
    const { id, method, params } = message;
    const revision = readRequestRevision(params);
    if (revision.kind === 'unsupported') {
      this.options.send(errorLine(id, unsupportedVersion(ERROR.unsupportedProtocolVersion, revision.requested, SERVED_VERSIONS)));
      return;
    }
    if (revision.kind === 'malformed') {
      this.options.send(errorLine(id, brokerError(ERROR.invalidParams, `Invalid params: ${revision.problem}`)));
      return;
    }
    const perRequest = revision.kind === 'per-request' ? { client: readCapabilities(revision.capabilities), logLevel: revision.logLevel } : undefined;
    // cache-hints-private sets every result's caching hints; without it a result's own (the server's) are relayed.
    const answer = answerTo(id, method, perRequest, this.options.send, this.options.guards.cacheHints.length === 0);
    if (perRequest === undefined ? this.handshakeRequest(answer, method, params) : this.perRequestOnly(answer, method, id, params)) return;
    switch (method) {
      case 'tools/list':
        answer.result(this.toolList);
        return;
      case 'tools/call':
        this.track(answer, this.call(answer, params));
        return;
      case 'resources/list':
      case 'resources/templates/list':
      case 'resources/read':
      case 'prompts/list':
      case 'prompts/get':
      case 'completion/complete':
        if (this.options.features === undefined) break;
        this.track(answer, this.feature(answer, method, params, this.options.features));
        return;
    }
    if (perRequest !== undefined && TASK_METHODS.has(method)) {
      this.taskMethod(answer, method, params);
      return;
    }
    answer.error(brokerError(ERROR.methodNotFound, `Method not found: ${method}`));
  }

  /**
   * What only the handshake's revisions have: the lifecycle (initialize first), ping, the
   * session's log level and resource subscriptions. True when the request was answered here.
   */
  private handshakeRequest(answer: Answer, method: string, params: JsonValue | undefined): boolean {
    const outOfOrder = this.lifecycleProblem(method);
    if (outOfOrder !== undefined) {
      answer.error(brokerError(ERROR.invalidRequest, `Invalid request: ${outOfOrder}`));
      return true;
    }
    switch (method) {
      case 'initialize':
        this.initialized = true;
        this.relay.learnClient(params);
        answer.result(initializeResult(params, this.offered(), this.options.instructions));
        // Only now are the server's requests answered: one it sent before the agent declared
        // its capabilities was held (src/upstream/inbound.ts) and is judged now, after the answer.
        for (const upstream of this.upstreams) upstream.onRequest((method, params) => this.relay.request(method, params));
        return true;
      case 'ping':
        answer.result(object([]));
        return true;
      case 'logging/setLevel':
        if (this.logging.length === 0) return false;
        this.track(answer, this.setLevel(answer, params));
        return true;
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        if (this.options.features === undefined) return false;
        this.track(answer, this.feature(answer, method, params, this.options.features));
        return true;
    }
    return false;
  }

  /**
   * What only 2026-07-28 has: `server/discover`, answered by the broker itself as it answers
   * initialize, and `subscriptions/listen`, a stream of the broker's own (src/session/listeners.ts),
   * acknowledged and left open, or refused. The methods that revision removed (initialize, ping,
   * logging/setLevel, resources/subscribe and unsubscribe) are unknown methods in it, and so
   * answered. True when the request was answered here.
   */
  private perRequestOnly(answer: Answer, method: string, id: JsonValue, params: JsonValue | undefined): boolean {
    this.refuseServerRequests();
    if (method === 'server/discover') {
      // discover-pinned answers from what Load vetted; without it the server is asked again.
      if (this.options.guards.discover.length === 0) this.track(answer, this.rediscoverServer(answer, params));
      else answer.result(discoverResult(this.offered(), this.options.instructions));
      return true;
    }
    if (method === LISTEN && this.options.subscriptions !== false) {
      const opened = this.streams.listen(id, params);
      if (opened.ok) this.options.send(opened.acknowledgment);
      else answer.error(opened.error);
      return true;
    }
    if (!REMOVED_PER_REQUEST.has(method)) return false;
    answer.error(brokerError(ERROR.methodNotFound, `Method not found: ${method}`));
    return true;
  }

  /**
   * A 2026-07-28 agent takes no requests from a server: an older server's request (held until
   * now, src/upstream/inbound.ts) is refused at once rather than held until it times out. An
   * initialize that follows hands them to the relay instead.
   */
  private refuseServerRequests(): void {
    if (this.initialized || this.perRequestAgent) return;
    this.perRequestAgent = true;
    const refused = (method: string): Promise<Reply> => Promise.resolve({ ok: false, error: brokerError(ERROR.methodNotFound, `the agent speaks 2026-07-28, which has no ${method} request from a server`) });
    for (const upstream of this.upstreams) upstream.onRequest(refused);
  }

  /** The capabilities of what the broker offers besides tools. */
  private offered(): readonly (readonly [string, JsonValue])[] {
    return [...(this.logging.length > 0 ? [['logging', object([])] as const] : []), ...(this.options.features?.capabilities() ?? [])];
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
  private track(answer: Answer, work: Promise<void>): void {
    const level = answer.perRequest?.logLevel;
    if (level !== undefined) this.logLevels.push(level);
    const done = (): void => {
      this.inFlight.delete(answered);
      if (level !== undefined) this.logLevels.splice(this.logLevels.indexOf(level), 1);
    };
    // One reaction for either outcome: a catch and a finally were two promises more per request.
    const answered = work.then(done, () => {
      try {
        // A failure of the broker's own (its state directory or audit trail): nothing more is
        // forwarded, and the agent learns only that the broker failed.
        answer.error(brokerError(ERROR.internal, 'Internal error'));
      } finally {
        done();
      }
    });
    this.inFlight.add(answered);
  }

  /**
   * Whether a server's notification may reach the agent. An agent that initialized, or has sent
   * nothing of 2026-07-28, hears them as before that revision, its log level set for the session
   * (logging/setLevel). A 2026-07-28 agent hears of list changes only on a subscriptions/listen
   * stream it opened for them (`deliver`); and a log message only while a request of its in
   * flight asked for messages of at least its severity: the spec's server sends none for a request
   * without a level, and the broker does not take its word for it. Progress goes to the request
   * that asked for it either way.
   */
  private wants(method: string, params: JsonObject | undefined): boolean {
    if (this.initialized || !this.perRequestAgent || method === 'notifications/progress') return true;
    if (onStream(method)) return this.streams.wants(method);
    if (method !== 'notifications/message') return false;
    const severity = LOG_LEVELS.indexOf(stringValue(params === undefined ? undefined : member(params, 'level')) ?? '');
    return severity >= 0 && this.logLevels.some((level) => LOG_LEVELS.indexOf(level) <= severity);
  }

  /**
   * Sends the agent a notification the relay let through, without the subscription id a server
   * tagged it with: a 2026-07-28 agent gets a list change on each of its streams that asked for
   * it, under that stream's id; any other notification, and every one to an agent of the
   * handshake's revisions, goes as one line.
   */
  private deliver(method: string, params: JsonObject | undefined): void {
    const untagged = params === undefined ? undefined : withoutServerTag(params);
    if (this.initialized || !this.perRequestAgent || !onStream(method)) {
      this.options.send(notificationLine(method, untagged));
      return;
    }
    for (const line of this.streams.lines(method, untagged ?? object([]))) this.options.send(line);
  }

  /**
   * A request's params as forwarded to a server: without the members by which a 2026-07-28 agent
   * declared itself (the broker declares its own to the server, src/upstream/per-request.ts).
   * A request of the handshake's revisions has none of them, and goes as it came.
   */
  private forwardedParams(params: JsonValue | undefined, perRequest: Answer['perRequest']): JsonValue | undefined {
    const meta = requestMeta(params);
    if (perRequest === undefined || params?.kind !== 'object' || meta === undefined) return params;
    return object(params.entries.map(([key, value]) => [key, key === '_meta' ? withoutMembers(meta, AGENT_DECLARATIONS) : value]));
  }

  private async feature(answer: Answer, method: string, params: JsonValue | undefined, features: FeatureSession): Promise<void> {
    const answered = await features.answer(method, this.forwardedParams(params, answer.perRequest));
    if (answered.ok) {
      answer.result(answered.result);
      return;
    }
    if (answered.passOn !== true) {
      // 2026-07-28 answers a resource not found with Invalid Params (changelog, minor change 6).
      const notFound = answer.perRequest !== undefined && numberText(member(answered.error, 'code')) === String(RESOURCE_NOT_FOUND);
      answer.error(notFound ? withMembers(answered.error, { code: plain(ERROR.invalidParams) }) : answered.error);
      return;
    }
    // The server's own error, through the outbound stage as a call's is.
    const error = this.outbound(answered.error, 'error');
    answer.error(error.ok && error.message.kind === 'object' ? error.message : brokerError(ERROR.upstream, "The server's error is withheld."));
  }

  /**
   * The agent's log level, for every server that declared `logging`: only a level MCP names is
   * sent, and only the level (nothing else of the agent's params). The log messages that follow
   * are judged by the notification guards as every other.
   */
  private async setLevel(answer: Answer, params: JsonValue | undefined): Promise<void> {
    const level = params?.kind === 'object' ? stringValue(member(params, 'level')) : undefined;
    if (level === undefined || !LOG_LEVELS.includes(level)) {
      answer.error(brokerError(ERROR.invalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`));
      return;
    }
    const { callTimeoutMs } = this.options.limits;
    const replies = await Promise.all(
      this.logging.map((upstream) => upstream.request('logging/setLevel', object([['level', plain(level)]]), callTimeoutMs, 'logging/setLevel').catch(() => undefined)),
    );
    // What a server said in refusing is its own text: the agent learns only that one did.
    const refused = replies.filter((reply) => reply?.ok !== true).length;
    if (refused === 0) answer.result(object([]));
    else answer.error(brokerError(ERROR.upstream, `${refused} of ${replies.length} server(s) did not accept the log level ${level}`));
  }

  /**
   * Without discover-pinned: the agent's `server/discover` goes to the (first) server as the agent
   * sent it, and the server's answer, whatever it now says, is the agent's.
   */
  private async rediscoverServer(answer: Answer, params: JsonValue | undefined): Promise<void> {
    const reply = await this.options.upstream.request('server/discover', params ?? object([]), this.options.limits.callTimeoutMs, 'server/discover').catch(() => undefined);
    if (reply?.ok === true) answer.result(reply.result);
    else answer.error(brokerError(ERROR.upstream, 'the server did not answer server/discover'));
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

  private async call(answer: Answer, params: JsonValue | undefined): Promise<void> {
    const { context, guards } = this.options;
    const name = params?.kind === 'object' ? stringValue(member(params, 'name')) : undefined;
    const sent = params?.kind === 'object' ? member(params, 'arguments') : undefined;
    if (name === undefined || (sent !== undefined && sent.kind !== 'object')) {
      answer.error(brokerError(ERROR.invalidParams, 'Invalid params: tools/call needs a string name and object arguments'));
      return;
    }
    const tool = this.byName.get(name);
    const args = sent ?? object([]);
    // The digest of the arguments as the agent sent them, made once: the audit records name it,
    // and a retry handle is bound to it.
    const argumentsSha256 = sha256Hex(canonicalJson(args));
    const trail = new CallTrail(this.options.audit, tool, name, argumentsSha256, context.agent ?? null);
    // The call's own timeout: time spent waiting for a rediscovery is taken from it.
    let timeoutMs = tool?.callTimeoutMs ?? this.options.limits.callTimeoutMs;
    if (this.rediscovering !== undefined) {
      const waitFrom = Date.now();
      if (!(await this.decidedWithin(guards.rediscovery.reduce((ms, guard) => Math.min(ms, guard.waitBound(timeoutMs)), Infinity)))) {
        // Nothing was judged on the old decision, and nothing was forwarded.
        this.refuse(answer, refusal('tool_timeout', `the server's tools were still being decided again after ${timeoutMs} ms, so ${name} was not sent.`, { timeout_ms: timeoutMs }), trail);
        return;
      }
      timeoutMs = Math.max(1, timeoutMs - (Date.now() - waitFrom));
    }
    if (!this.visible(name, tool)) {
      trail.record('call_refused', { asAsked: true, toolExists: tool !== undefined, detail: 'answered as an unknown tool' });
      // One answer for every name the agent may not see, so the answer tells it nothing.
      answer.error(brokerError(ERROR.invalidParams, `Unknown tool: ${name}`));
      return;
    }
    // A retry of a multi round-trip call: only with a handle the broker issued for this very call.
    const retry = this.inputs.redeem(params, answer.perRequest, callSubject(name, argumentsSha256));
    if (retry.kind === 'refused') {
      trail.record('call_refused', { toolExists: tool !== undefined, detail: retry.problem });
      answer.error(brokerError(ERROR.invalidParams, `Invalid params: ${retry.problem}`));
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
        this.refuse(answer, verdict.refusal, trail);
        return;
      }
      if (verdict.note !== undefined) notes.push(verdict.note);
    }

    const fixed = tool?.rule?.fixed ?? [];
    trail.record('allowed', { detail: notes.length === 0 ? null : notes.join('; ') });
    const progressToken = meta?.kind === 'object' ? member(meta, 'progressToken') : undefined;
    const forwarded = sent === undefined && fixed.length === 0 ? undefined : injectFixed(args, fixed);
    const tasks = answer.perRequest !== undefined && declaresTasks(params);
    await this.dispatch(answer, trail, { args: forwarded, progressToken, timeoutMs, retry: retry.kind === 'retry' ? retry : undefined, tasks });
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
   * the agent asked for progress, the call carries a token of the broker's own while it runs. A
   * server that answers `input_required` has its input requests judged (src/session/input-required.ts):
   * a 2026-07-28 agent is answered with those allowed and a handle of the broker's, and retries;
   * an agent of the handshake's revisions is asked each as a server's request, and the broker
   * retries for it, within MAX_ROUNDS.
   */
  private async dispatch(answer: Answer, trail: CallTrail, call: CallToSend): Promise<void> {
    const { name, tool } = trail;
    // The record that allowed the call is on file before the server sees it.
    this.options.audit?.flush();
    const progress = call.progressToken === undefined ? undefined : this.relay.issueProgress(call.progressToken);
    let round = call.retry?.round ?? 0;
    let input = call.retry === undefined ? undefined : this.inputFor(call.retry);
    let reply: Reply;
    try {
      for (;;) {
        try {
          reply = await this.forward(tool?.tool ?? name, tool, call.args, { progressToken: progress?.token, logLevel: answer.perRequest?.logLevel, input, tasks: call.tasks }, call.timeoutMs);
        } catch (err) {
          this.failed(answer, trail, err as Error);
          return;
        }
        if (reply.ok && call.tasks === true && resultTypeOf(reply.result) === RESULT_TYPE.task) {
          this.taskMade(answer, trail, reply.result, call.args);
          return;
        }
        if (!reply.ok || resultTypeOf(reply.result) === RESULT_TYPE.complete) break;
        round += 1;
        const asked = resultTypeOf(reply.result) === RESULT_TYPE.inputRequired ? readInputRequired(reply.result) : 'its resultType is not one the broker knows';
        if (typeof asked === 'string' || round > MAX_ROUNDS) {
          const why = typeof asked === 'string' ? asked : `it asked for input more than ${MAX_ROUNDS} times`;
          this.reject(answer, trail, afterDispatch('result_withheld', `its result is withheld: ${why}.`));
          return;
        }
        if (answer.perRequest !== undefined) {
          this.askToRetry(answer, trail, asked, round, callSubject(name, trail.argumentsSha256));
          return;
        }
        input = await this.bridged(asked);
      }
    } finally {
      progress?.retire();
    }
    if (!reply.ok) {
      const error = this.outbound(reply.error, 'error');
      // The stage keeps an object an object; anything else would be no error to pass on.
      if (!error.ok || error.message.kind !== 'object') {
        this.reject(answer, trail, afterDispatch('result_withheld', `its error is withheld: ${error.ok ? 'it is not an error object' : error.problem}.`));
        return;
      }
      trail.record('call_answered', { dispatched: true, detail: 'the server answered with a JSON-RPC error, passed on' });
      answer.error(error.message);
      return;
    }
    const args = call.args;
    const judged = await this.judgeResult(reply.result, tool, args?.kind === 'object' ? args : object([]));
    if (judged.kind === 'refuse') {
      this.reject(answer, trail, judged.refusal);
      return;
    }
    const receipt = this.receiptFor(trail);
    trail.record('call_answered', { dispatched: true, receipt });
    answer.result(withReceipt(judged.result, receipt));
  }

  /** A call that could not be sent, or got no answer the broker would read. */
  private failed(answer: Answer, trail: CallTrail, err: Error): void {
    // The late answer to a timed-out call is dropped by the connection; it never reaches here.
    if (err instanceof RequestTimedOut) {
      this.reject(answer, trail, refusal('tool_timeout', `${err.message}.`, { timeout_ms: err.timeoutMs }));
    } else if (err instanceof ResultTooLarge) {
      this.reject(answer, trail, afterDispatch('result_too_large', `${err.message}, which was dropped unread.`, { max_bytes: err.maxBytes }));
    } else if (err instanceof ResultOverLimit) {
      this.reject(answer, trail, afterDispatch('result_withheld', `${err.message}.`));
    } else if (err instanceof ServerGone) {
      const why = refusal('server_unavailable', `${err.message}.`, { server: err.serverId });
      if (err.dispatched) this.reject(answer, trail, why);
      else this.refuse(answer, why, trail);
    } else {
      // The connection refused to send it (too many requests in flight).
      trail.record('call_refused', { toolExists: true, detail: err.message });
      answer.error(brokerError(ERROR.upstream, err.message));
    }
  }

  private receiptFor({ name, tool }: { readonly name: string; readonly tool: RegisteredTool | undefined }): Receipt {
    return { tool: name, permission: tool?.rule?.permission, dataClassification: tool?.rule?.dataClassification ?? DEFAULT_DATA_CLASSIFICATION };
  }

  /**
   * Answers a 2026-07-28 agent's call with the broker's own `input_required` result: the input
   * requests the guards allowed, as they left them, under the server's keys, and the state for the
   * retry the session's states give (a handle of the broker's under request-state-bound). A refused one is left out: the agent never sees it, and the server gets no response to it.
   */
  private askToRetry(answer: Answer, trail: CallTrail, asked: InputRequired, round: number, subject: string): void {
    const { shown, requests } = this.shownOf(answer, asked);
    const handle = this.inputs.issue(subject, asked.requestState, shown, round);
    const receipt = this.receiptFor(trail);
    trail.record('call_answered', { dispatched: true, receipt, detail: `the server asked for input: ${shown.size} of ${asked.requests.length + asked.unread} input request(s) shown` });
    const result = object([['inputRequests', requests.length === 0 ? undefined : object(requests)], ['requestState', plain(handle)]]);
    answer.result(withReceipt(result, receipt), RESULT_TYPE.inputRequired);
  }

  /**
   * The input requests of a server's the guards allow a 2026-07-28 agent to see (judged as the
   * requests they replace), as they left them, under the server's keys; a refused one is left out.
   */
  private shownOf(answer: Answer, asked: InputRequired): { shown: Map<string, Shown>; requests: (readonly [string, JsonValue])[] } {
    const client = answer.perRequest?.client ?? NO_CAPABILITIES;
    const shown = new Map<string, Shown>();
    const requests: (readonly [string, JsonValue])[] = [];
    for (const { key, method, params } of asked.requests) {
      const judged = this.relay.judge(method, params, client);
      if (!judged.ok) continue;
      shown.set(key, { method, context: judged.context });
      requests.push([key, object([['method', plain(method)], ['params', params === undefined && judged.params.entries.length === 0 ? undefined : judged.params]])]);
    }
    return { shown, requests };
  }

  /**
   * For an agent of the handshake's revisions: each input request asked of it as the server's
   * request would have been (judged, sent under the broker's id, its answer reshaped), and what
   * the retry to the server carries. A request refused, or not answered, gets no response.
   */
  private async bridged(asked: InputRequired): Promise<UpstreamInput> {
    const responses: (readonly [string, JsonValue])[] = [];
    for (const { key, method, params } of asked.requests) {
      const reply = await this.relay.request(method, params);
      if (reply.ok) responses.push([key, reply.result]);
    }
    return { responses: object(responses), requestState: asked.requestState };
  }

  /** What a 2026-07-28 agent's retry carries to the server: its responses to what it was shown, reshaped, and the server's own state. */
  private inputFor(retry: Extract<Redeemed, { kind: 'retry' }>): UpstreamInput {
    return { responses: this.reshaped(retry.shown, retry.responses), requestState: retry.serverState };
  }

  /** The agent's responses to the input requests it was shown, each as the reply guards reshape it; any other key is dropped. */
  private reshaped(shown: ReadonlyMap<string, Shown>, responses: JsonValue | undefined): JsonObject {
    const kept: (readonly [string, JsonValue])[] = [];
    for (const [key, { method, context }] of shown) {
      const response = responses?.kind === 'object' ? member(responses, key) : undefined;
      if (response?.kind === 'object') kept.push([key, this.relay.reshape(method, response, context)]);
    }
    return object(kept);
  }

  /** A server answered the call with a task: the agent is shown it under a handle of the session's (src/session/tasks.ts). */
  private taskMade(answer: Answer, trail: CallTrail, result: JsonValue, args: JsonValue | undefined): void {
    const serverTaskId = namedTask(result);
    if (serverTaskId === undefined) {
      this.reject(answer, trail, afterDispatch('result_withheld', 'its result is withheld: a task without a string taskId.'));
      return;
    }
    const { name, tool } = trail;
    const handle = this.tasks.issue({ serverTaskId, upstream: this.upstreamOf(tool), tool, name, args: args?.kind === 'object' ? args : object([]) });
    trail.record('call_answered', { dispatched: true, receipt: this.receiptFor(trail), detail: 'the server answered with a task' });
    answer.result(taskShape(handle, this.tasks.find(handle)!, 'working', result), RESULT_TYPE.task);
  }

  /**
   * A task method of a 2026-07-28 agent: only for a task this session may reach (under task-bound,
   * a handle it was shown), sent to the task's server under the server's own id; anything else is
   * refused before any server sees it.
   */
  private taskMethod(answer: Answer, method: string, params: JsonValue | undefined): void {
    const handle = namedTask(params);
    const bound = handle === undefined ? undefined : this.tasks.find(handle);
    if (handle === undefined || bound === undefined) {
      answer.error(brokerError(ERROR.invalidParams, `Invalid params: ${handle === undefined ? 'no taskId' : 'no task of that id in this session'}`));
      return;
    }
    this.track(answer, this.taskRequest(answer, method, params, handle, bound));
  }

  private async taskRequest(answer: Answer, method: string, params: JsonValue | undefined, handle: string, bound: TaskBinding): Promise<void> {
    const responses = method === 'tasks/update' ? this.reshaped(bound.shown, params?.kind === 'object' ? member(params, 'inputResponses') : undefined) : undefined;
    const reply = await this.taskUpstream(bound, method, responses);
    if (!reply.ok) {
      const error = this.outbound(reply.error, 'error');
      answer.error(error.ok && error.message.kind === 'object' ? error.message : brokerError(ERROR.upstream, "The server's error is withheld."));
      return;
    }
    answer.result(method === 'tasks/get' ? await this.taskNow(answer, handle, bound, reply.result) : object([]));
  }

  /** A task method to the task's server, naming the server's own id. */
  private taskUpstream(bound: TaskBinding, method: string, inputResponses?: JsonObject): Promise<Reply> {
    const timeoutMs = bound.tool?.callTimeoutMs ?? this.options.limits.callTimeoutMs;
    return bound.upstream.request(method, object([['taskId', plain(bound.serverTaskId)], ['inputResponses', inputResponses]]), timeoutMs, method);
  }

  /**
   * The task as the agent is shown it: an ended task's result or error through the call path as a
   * call's (a refusal becomes the completed task's result, a tool error), its requests for input
   * judged as the requests they replace.
   */
  private async taskNow(answer: Answer, handle: string, bound: TaskBinding, task: JsonValue): Promise<JsonValue> {
    const status = task.kind === 'object' ? stringValue(member(task, 'status')) : undefined;
    if (status === 'completed' || status === 'failed' || status === 'cancelled') this.tasks.end(handle);
    const withheld = (why: string): JsonValue => taskShape(handle, bound, 'completed', task, ['result', toolError(afterDispatch('result_withheld', `its result is withheld: ${why}.`))]);
    switch (status) {
      case 'completed': {
        const result = task.kind === 'object' ? member(task, 'result') : undefined;
        if (result === undefined) return withheld('a completed task without its result');
        const judged = await this.judgeResult(result, bound.tool, bound.args);
        if (judged.kind === 'refuse') return taskShape(handle, bound, 'completed', task, ['result', toolError(judged.refusal)]);
        return taskShape(handle, bound, 'completed', task, ['result', withReceipt(judged.result, this.receiptFor(bound))]);
      }
      case 'failed': {
        const error = this.outbound((task.kind === 'object' ? member(task, 'error') : undefined) ?? object([]), 'error');
        if (!error.ok || error.message.kind !== 'object') return withheld(error.ok ? 'its error is not an error object' : error.problem);
        return taskShape(handle, bound, 'failed', task, ['error', error.message]);
      }
      case 'cancelled':
        return taskShape(handle, bound, 'cancelled', task);
      case 'input_required':
        return this.taskAsks(answer, handle, bound, task);
      default:
        return taskShape(handle, bound, 'working', task);
    }
  }

  /**
   * A task asking for input: the agent is shown the requests the guards allow and answers them with
   * tasks/update. When none is allowed the server is answered at once with no responses, as a
   * refused request gets none, and the agent sees the task working.
   */
  private async taskAsks(answer: Answer, handle: string, bound: TaskBinding, task: JsonValue): Promise<JsonValue> {
    const asked = readInputRequired(task);
    if (typeof asked === 'string') return taskShape(handle, bound, 'working', task);
    const { shown, requests } = this.shownOf(answer, asked);
    bound.shown = shown;
    if (requests.length > 0) return taskShape(handle, bound, 'input_required', task, ['inputRequests', object(requests)]);
    await this.taskUpstream(bound, 'tasks/update', object([])).catch(() => undefined);
    return taskShape(handle, bound, 'working', task);
  }

  /** A message the server chose, through the outbound stage as `channel`: what may reach the agent of it. */
  private outbound(message: JsonValue, channel: Channel): Outbound {
    return inspectOutbound(message, channel, this.stage);
  }

  /**
   * One tools/call to the tool's own server, bounded by the tool's timeout (or what is left of it);
   * with the broker's progress token, the agent's log level, and a retry's input, if any.
   */
  private forward(serverName: string, tool: RegisteredTool | undefined, args: JsonValue | undefined, extra: ForwardExtra = {}, timeoutMs = tool?.callTimeoutMs ?? this.options.limits.callTimeoutMs): Promise<Reply> {
    const { progressToken, logLevel, input, tasks } = extra;
    const meta = progressToken === undefined && logLevel === undefined ? undefined : object([['progressToken', progressToken], [META.logLevel, logLevel === undefined ? undefined : plain(logLevel)]]);
    const upstream = this.upstreamOf(tool);
    const params = object([
      ['name', plain(serverName)],
      ['arguments', args],
      ['_meta', meta],
      ['inputResponses', input?.responses],
      ['requestState', input?.requestState === undefined ? undefined : plain(input.requestState)],
    ]);
    const what = `tools/call "${serverName}"`;
    // Only a 2026-07-28 server's own connection declares the extension; the front door's view of one
    // does not, so a call through it is answered at once (docs/reference-broker.md, *Tasks*).
    return tasks === true && upstream instanceof PerRequestUpstream ? upstream.requestDeclaringTasks('tools/call', params, timeoutMs, what) : upstream.request('tools/call', params, timeoutMs, what);
  }

  /** The connection to a tool's own server; a tool no server registered (registered-calls-only disabled) goes to the first server. */
  private upstreamOf(tool: RegisteredTool | undefined): Requester {
    return (tool?.server === undefined ? undefined : this.options.servers?.get(tool.server)?.upstream) ?? this.options.upstream;
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
      const checked = guard.check(current, subject);
      // Most result guards decide at once: awaiting their verdict anyway cost a promise hop each.
      const verdict = checked instanceof Promise ? await checked : checked;
      if (verdict.kind === 'refuse') return verdict;
      current = verdict.result;
      if (verdict.serverError === true) subject = { ...subject, serverError: true };
    }
    const outbound = this.outbound(current, 'result');
    if (!outbound.ok) return { kind: 'refuse', refusal: afterDispatch('result_withheld', `its result is withheld: ${outbound.problem}.`) };
    return { kind: 'pass', result: outbound.message };
  }

  /** A refusal before dispatch: the server never saw the call. */
  private refuse(answer: Answer, why: ToolRefusal, trail: CallTrail): void {
    trail.record('call_refused', { code: why.code, toolExists: this.byName.has(trail.name), detail: why.sentence });
    answer.result(toolError(why));
  }

  /** A refusal after dispatch: the call may have run, and the agent gets a refusal instead of the answer. */
  private reject(answer: Answer, trail: CallTrail, why: ToolRefusal): void {
    trail.record('call_rejected', { code: why.code, dispatched: true, detail: why.sentence });
    answer.result(toolError(why));
  }
}

/**
 * One call's audit records: each says what was asked (the name and the digest of the arguments as
 * the agent sent them), what the guards learned so far (validation, grant), and the decision.
 */
class CallTrail {
  private findings: Required<CallFindings> = { validation: 'not_checked', grant: null };

  constructor(
    private readonly audit: AuditSink | undefined,
    readonly tool: RegisteredTool | undefined,
    readonly name: string,
    /** SHA-256 of the canonical JSON of the arguments as the agent sent them. */
    readonly argumentsSha256: string,
    private readonly agent: string | null,
  ) {}

  learn(findings: CallFindings | undefined): void {
    // Most guards learn nothing: a copy of the findings for each was an object per guard per call.
    if (findings !== undefined) this.findings = { ...this.findings, ...findings };
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
    this.audit.record({
      decision,
      tool: asAsked ? this.name : (this.tool?.tool ?? this.name),
      name: this.name,
      agent: this.agent,
      code,
      toolExists,
      call: { operation: { name: this.name, argumentsSha256: this.argumentsSha256 }, ...this.findings, dispatched, receipt },
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

/** A call's identity for a retry handle: the tool as the agent named it, and the digest of its arguments as the agent sent them. */
const callSubject = (name: string, argumentsSha256: string): string => `tools/call\0${name}\0${argumentsSha256}`;

/**
 * The broker's answer to a 2026-07-28 `server/discover`: its own capabilities and the instructions
 * Load decided, as its initialize answer gives them; its name in `_meta` (server/discover.mdx).
 */
function discoverResult(offered: readonly (readonly [string, JsonValue])[], instructions: string | undefined): JsonValue {
  return object([
    ['supportedVersions', plain([...SERVED_VERSIONS])],
    ['capabilities', object([['tools', object([])], ...offered])],
    ['instructions', instructions === undefined ? undefined : plain(instructions)],
    ['_meta', object([[META.serverInfo, plain({ name: BROKER_NAME, version: BROKER_VERSION })]])],
  ]);
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
