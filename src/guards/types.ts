// The shapes of the broker's guards. Each guard is one named protection; the registry collects
// them so that `--disable-guard NAME` removes exactly one, and the suite can show each is needed.

import type { Stats } from 'node:fs';
import type { ApprovalStore } from '../session/approvals.js';
import type { Resolver } from '../net/resolve.js';
import type { Quarantine } from '../load/quarantine.js';
import type { PrivateReads } from '../session/private-reads.js';
import type { Clock } from '../operator/time.js';
import type { StageStepConfig } from '../inspect/stage.js';
import type { NonText, ClientFacts, AuditDecision, CallFacts, Agents, Config, ServerRequests, Effect, Grant, Limits, Policy, Rule, JsonObject, JsonValue, ListedTool, ListingPage, RegisteredTool, Refusal, Manifest, PinnedTool, ToolRefusal, Drift, Compiled, Presentation, AnswerSubject, AnswerVerdict, DescriptorSubject, DescriptorVerdict, FeatureRequest, FeatureRequestVerdict, Offered, ServerSpec } from '../types.js';

/** Refuses the whole listing: sees every page in turn and returns a reason, or null. */
export interface ListingGuard {
  readonly name: string;
  /** Starts one listing; the returned check keeps whatever state the guard needs across pages. */
  begin(limits: Limits): (page: ListingPage) => string | null;
}

/** Everything Load knows about one tool name: at least one of `live` and `pin` is set. */
export interface ToolSubject {
  readonly name: string;
  readonly live: ListedTool | undefined;
  readonly pin: PinnedTool | undefined;
  readonly rule: Rule | undefined;
  /** The name the agent would see it by. */
  readonly offered: string;
  /** The offered names of the tools registered before this one, each as its nameKey (src/normal/name.ts). */
  readonly taken: ReadonlySet<string>;
  /** The input schema the broker would serve: the live one, or the pinned one for a dropped tool. */
  readonly inputSchema: JsonObject;
  /** The parameters the rule hides (denied, then fixed). */
  readonly hidden: readonly string[];
  /** The input schema without the hidden parameters: what the agent sees and calls are checked by. */
  readonly restricted: JsonObject;
  /** The validator for `restricted`, compiled on first use (never before the schema guards ran). */
  readonly compiled: () => Compiled;
  /** What the agent would be shown, as the presentation guards and the outbound stage leave it. */
  readonly shown: Presentation;
  /** Why the outbound stage withholds the descriptor the agent would be shown, if it does. */
  readonly withheld: string | undefined;
  /** The operator's rules by server name, for a guard that judges a rule naming another tool. */
  readonly rules: ReadonlyMap<string, Rule>;
  /** The names the server lists now. */
  readonly listed: ReadonlySet<string>;
}

export type ToolVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'refuse'; readonly reason: string }
  /** Passes because the operator's rule allows it; the note goes into the load report. */
  | { readonly kind: 'overridden'; readonly note: string };

/** Decides on one tool at Load. */
export interface ToolGuard {
  readonly name: string;
  check(subject: ToolSubject): ToolVerdict;
}

/** What the fleet guards decide: the tools the agent may be offered, as it is to see them, and those refused. */
export interface FleetVerdict {
  readonly registered: readonly RegisteredTool[];
  readonly refused: readonly Refusal[];
}

/**
 * With several servers, decides on every server's registered tools together, once each server's
 * own were decided; in order. With one server there is nothing between servers to decide.
 */
export interface FleetGuard {
  readonly name: string;
  judge(registered: readonly RegisteredTool[]): FleetVerdict;
}

/**
 * Decides on one server's registered tools together, once each was decided on its own: what a
 * server's tools say only when read side by side, as the agent reads its listing. Shaped as a
 * fleet guard, but run on every server's tools, one server at a time (load.ts).
 */
export type ServerToolsGuard = FleetGuard;

/** Replaces part of what the agent sees with what the operator decided, or drops what it may not see. */
export interface PresentationGuard {
  readonly name: string;
  /** `server` is the server the tool comes from, as the operator named it; `pin` what the manifest records of the tool, if it does. */
  present(shown: Presentation, effect: Effect | undefined, rule: Rule | undefined, limits: Limits, server: ServerSpec, pin: PinnedTool | undefined): Presentation;
}

/** Who is calling, and the operator's decisions that apply to every call. */
export interface CallContext {
  /** The session's agent (`serve --agent`), if one was named. */
  readonly agent: string | undefined;
  /** Undefined when the operator names no agents: there is then no filtering by agent. */
  readonly agents: Agents | undefined;
  readonly grants: readonly Grant[];
  readonly policy: Policy;
  /** Present whenever the policy holds some class for approval. */
  readonly approvals: ApprovalStore | undefined;
  readonly clock: Clock;
  /** The tools a rediscovery during this session found drifted. */
  readonly quarantine: Quarantine;
  /** The tools reaching private data this session has called. */
  readonly privateReads: PrivateReads;
}

/** Decides whether the agent may see a tool at all. A tool it may not see is answered exactly
 * like a name that exists nowhere, and is left out of its listing. */
export interface VisibilityGuard {
  readonly name: string;
  /** `tool` is the tool registered under `name`, or undefined when none is. */
  visible(name: string, tool: RegisteredTool | undefined, context: CallContext): boolean;
}

/** One tools/call, past visibility, as the call guards see it. */
export interface CallSubject {
  /** The name the agent called. */
  readonly name: string;
  /** Undefined only when registered-calls-only is disabled and no tool has the name. */
  readonly tool: RegisteredTool | undefined;
  /** The agent's arguments; `{}` when it sent none. */
  readonly args: JsonObject;
  /** `params._meta["io.mcp-gauntlet/agent-chain"]` as sent, or undefined. */
  readonly chain: JsonValue | undefined;
}

/** An approval event the session records in the audit trail. */
export interface ApprovalEvent {
  readonly decision: Extract<AuditDecision, `approval_${string}`>;
  readonly requestId: string;
}

/** What a guard learned about the call that the call's audit records carry. */
export type CallFindings = Partial<Pick<CallFacts, 'validation' | 'grant'>>;

export type CallVerdict =
  /** `note` goes into the audit record of the allowed call. */
  | { readonly kind: 'pass'; readonly note?: string; readonly event?: ApprovalEvent; readonly findings?: CallFindings }
  | { readonly kind: 'refuse'; readonly refusal: ToolRefusal; readonly event?: ApprovalEvent; readonly findings?: CallFindings };

/** Decides whether a visible tool may run now; the first refusal is the agent's answer. */
export interface CallGuard {
  readonly name: string;
  check(call: CallSubject, context: CallContext): CallVerdict;
}

/** Bounds how the server's messages are framed; present or absent as a whole. */
export interface FrameGuard {
  readonly name: string;
  /** The longest line the server may send, in bytes. */
  lineBound(limits: Limits): number;
}

/** Bounds what the broker holds written for a server that has not read it; present or absent as a whole. */
export interface QueueGuard {
  readonly name: string;
  /** The most bytes left unread by the server before further requests to it are refused. */
  queuedBytes(limits: Limits): number;
}

/** One forwarded call's answer, as the result guards see it. */
export interface ResultSubject {
  /** Undefined only when registered-calls-only is disabled and no tool has the name. */
  readonly tool: RegisteredTool | undefined;
  /** The arguments as forwarded, fixed values included; `{}` when there were none. */
  readonly args: JsonObject;
  readonly limits: Limits;
  readonly nonText: NonText;
  /** Set once server-error-is-tool-error found the server reporting that the call failed. */
  readonly serverError: boolean;
  /** The registered tool with this server name, if any. */
  readonly registered: (serverName: string) => RegisteredTool | undefined;
  /** Calls another tool through the same forwarding path as the call itself. */
  readonly forward: (tool: RegisteredTool, args: JsonObject) => Promise<JsonValue>;
}

export type ResultVerdict =
  /** `serverError` marks the result as the server's report of a failed call. */
  | { readonly kind: 'pass'; readonly result: JsonValue; readonly serverError?: boolean }
  /** An after-dispatch rejection: the call already ran. */
  | { readonly kind: 'refuse'; readonly refusal: ToolRefusal };

/** Judges or reshapes a forwarded call's result before the agent sees it; in order. */
export interface ResultGuard {
  readonly name: string;
  check(result: JsonValue, subject: ResultSubject): ResultVerdict | Promise<ResultVerdict>;
}

/** What a drift guard may act on once a rediscovery found tools that no longer match. */
export interface DriftResponse {
  readonly quarantine: Quarantine;
  /** Ends the upstream session: the server's whole group is stopped, and later calls fail at once. */
  readonly closeUpstream: (why: string) => Promise<void>;
}

/** Acts when a rediscovery during the session found drifted tools (never called with none). */
export interface DriftGuard {
  readonly name: string;
  react(drifted: readonly Drift[], response: DriftResponse): void | Promise<void>;
}

/**
 * Bounds what the server's notices that its tools changed can cost the calls: how rediscoveries
 * queue, and how long a call waits for them.
 */
export interface RediscoveryGuard {
  readonly name: string;
  /** Whether a notice joins a rediscovery already waiting to begin rather than queue one more. */
  readonly coalesce: boolean;
  /** The longest a call waits for rediscoveries, given its own timeout. */
  waitBound(callTimeoutMs: number): number;
}

/** What the operator placed in the server's environment, by variable name. */
export type ServerEnv = ReadonlyMap<string, string>;

/** One step of the outbound stage on the channels it names (inspect/stage.ts). */
export interface OutboundGuard extends StageStepConfig {
  readonly name: string;
}

/** Decides whether the broker may serve at all once Load is done; a reason to stop, or null. */
/** Present, the broker sets the caching hints of every 2026-07-28 result itself (src/guards/cache-hints.ts); its mechanics live in src/session/answer.ts. */
export interface CacheHintGuard {
  readonly name: string;
}

/** Present, the session shows the agent its own handle for each task, bound to the session, the server and the call (src/guards/tasks.ts, src/session/tasks.ts). */
export interface TaskGuard {
  readonly name: string;
}

/** Present, the session binds each multi round-trip state to its call (src/guards/input-state.ts); its mechanics live in the session. */
export interface InputStateGuard {
  readonly name: string;
}

/** Whether a 2026-07-28 agent's `server/discover` is answered from what Load vetted (src/guards/discover.ts). */
export interface DiscoverGuard {
  readonly name: string;
}

export interface ServeGuard {
  readonly name: string;
  check(registeredCount: number): string | null;
}

/** What `serve` was given to work from, before anything is started. */
export interface ConfigSubject {
  readonly config: Config;
  /** Undefined when no manifest was given. */
  readonly manifest: Manifest | undefined;
  /** The operator asked to serve with nothing pinned (`serve --unpinned`). */
  readonly unpinned: boolean;
}

/** Refuses the operator's files as a whole, before the server is started; a reason, or null. */
export interface ConfigGuard {
  readonly name: string;
  check(subject: ConfigSubject): string | null;
}

/** How the server process is to be started; the process guards shape it in turn. */
export interface LaunchPlan {
  readonly command: string;
  readonly args: readonly string[];
  /** In a session and process group of its own, which the server leads. */
  readonly ownGroup: boolean;
  /** With a watcher that kills that group when the broker's end of a pipe to it closes. */
  readonly watchGroup: boolean;
}

/** Shapes how the server process is started. */
export interface ProcessGuard {
  readonly name: string;
  launch(plan: LaunchPlan): LaunchPlan;
}

/** Refuses an operator file, as opened, before it is read; a reason, or null. */
export interface FileGuard {
  readonly name: string;
  /** `uid` is the user the broker runs as; undefined where there are no Unix users. */
  check(stats: Stats, uid: number | undefined): string | null;
}

/**
 * Judges a server URL before anything is dialled, and every address a dial is about to connect
 * to: a reason to refuse, or null.
 */
export interface AddressGuard {
  readonly name: string;
  /**
   * `env` is the broker's own environment, where an operator's opt-in lives (never the config);
   * `resolve` stands in for the system's resolver in tests.
   */
  refuse(url: URL, env: NodeJS.ProcessEnv, resolve?: Resolver): Promise<string | null>;
  /** Judges `address`, which a name in `url` resolved to (or `url`'s IP literal), as it is dialled. */
  refuseDial(url: URL, address: string, env: NodeJS.ProcessEnv): string | null;
  /** How names are resolved for the run, for the check and the dials alike, given how they would be. */
  resolver(resolve: Resolver): Resolver;
}

/** How an HTTP server is spoken to; the HTTP guards shape it in turn. */
export interface HttpPlan {
  /** Whether a 3xx answer is followed to wherever it points. */
  readonly followRedirects: boolean;
  /** The most bytes one response body may have; a longer one fails the read. */
  readonly maxBodyBytes: number;
  /** The token sent as `Authorization: Bearer`, if any: the one mapped to the URL's exact hostname. */
  readonly bearer: string | undefined;
}

/** Shapes how an HTTP server is spoken to. */
export interface HttpGuard {
  readonly name: string;
  plan(plan: HttpPlan, limits: Limits, url: URL): HttpPlan;
}

/**
 * One named protection of resources, prompts and completion. It may act at Load (on each listed
 * descriptor), before the server is asked (on each request), and on each answer; a hook it does
 * not have is a point where it does not act.
 */
export interface FeatureGuard {
  readonly name: string;
  present?(subject: DescriptorSubject): DescriptorVerdict;
  request?(request: FeatureRequest, offered: Offered): FeatureRequestVerdict;
  answer?(result: JsonValue, subject: AnswerSubject): AnswerVerdict;
}

// What a server starts on its own: its requests to the agent (sampling, elicitation, roots), the
// agent's answers on their way back to it, and its notifications. Each kind names the methods it
// acts on; the session's relay runs only those.

/** What the agent declared in its initialize request's capabilities. */
export type { ClientFacts } from '../types.js';

export interface InitiatedContext {
  readonly policy: ServerRequests;
  readonly client: ClientFacts;
  readonly serverEnv: ServerEnv;
  /** How many messages of this method the server has started this session, this one included. */
  readonly count: number;
}

/** A server's request or notification as a guard judges it. */
export interface Initiated {
  readonly method: string;
  /** An absent params is judged as `{}`. */
  readonly params: JsonObject;
}

export type RequestVerdict = { readonly kind: 'pass'; readonly params: JsonObject } | { readonly kind: 'refuse'; readonly reason: string };

/** Judges a server's request before the agent sees it: refused (the server gets an error), or passed on, perhaps reshaped. */
export interface ServerRequestGuard {
  readonly name: string;
  readonly methods: readonly string[];
  check(request: Initiated, context: InitiatedContext): RequestVerdict;
}

/** Reshapes the agent's result to a server's request before the server sees it. */
export interface ServerReplyGuard {
  readonly name: string;
  readonly methods: readonly string[];
  reshape(result: JsonValue, context: InitiatedContext): JsonValue;
}

export interface NotificationContext extends InitiatedContext {
  /** For `notifications/progress`: whether its token is one the broker issued for a call still in flight. */
  readonly ownProgress: boolean;
}

export type NotificationVerdict = { readonly kind: 'forward'; readonly params: JsonObject } | { readonly kind: 'drop' };

/** Judges a server's notification before the agent sees it: dropped, or forwarded, perhaps reshaped. */
export interface NotificationGuard {
  readonly name: string;
  readonly methods: readonly string[];
  check(notification: Initiated, context: NotificationContext): NotificationVerdict;
}
