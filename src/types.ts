// The shapes every stage of the broker shares: JSON values as its own reader gives them, the
// operator's configuration as read, a listed, pinned and registered tool, what a drift or a refusal
// says, and what an audit record says about a call. Data only: this module imports nothing, so any
// stage can depend on it without depending on another stage, and the stages form no cycle.

export type JsonValue = JsonNull | JsonBool | JsonNumber | JsonString | JsonArray | JsonObject;

export interface JsonNull {
  readonly kind: 'null';
}

export interface JsonBool {
  readonly kind: 'bool';
  readonly value: boolean;
}

export interface JsonNumber {
  readonly kind: 'number';
  /** The literal exactly as written, e.g. `9007199254740993` or `10e-1`. */
  readonly text: string;
}

export interface JsonString {
  readonly kind: 'string';
  readonly value: string;
}

export interface JsonArray {
  readonly kind: 'array';
  readonly items: readonly JsonValue[];
}

export interface JsonObject {
  readonly kind: 'object';
  /** Keys are unique: the reader refuses a duplicate instead of choosing one. */
  readonly entries: readonly (readonly [string, JsonValue])[];
}

/**
 * A value the broker chose itself (never one a peer sent), written as a plain JS value. Numbers
 * must be safe integers so that converting them to a literal loses nothing.
 */
export type Plain = null | boolean | number | string | readonly Plain[] | { readonly [key: string]: Plain };

export const EFFECTS = ['read_only', 'local_change', 'remote_change', 'destructive'] as const;

export type Effect = (typeof EFFECTS)[number];

export const POLICY_ACTIONS = ['allow', 'deny', 'approve'] as const;

export type PolicyAction = (typeof POLICY_ACTIONS)[number];

export type Policy = Readonly<Record<Effect, PolicyAction>>;

export interface Rule {
  readonly effect: Effect;
  /** Replaces the server's description in what the agent sees. */
  readonly description: string | undefined;
  /** Registers the tool even when the server's hints contradict `effect`. */
  readonly allowHintMismatch: boolean;
  /**
   * The hints the agent is shown beside those `effect` gives (CLS-3): `idempotentHint` and
   * `openWorldHint` as the operator states them; absent, the agent is shown none, never the server's.
   */
  readonly idempotent: boolean | undefined;
  readonly openWorld: boolean | undefined;
  /** Overrides limits.call_timeout_ms for this tool. */
  readonly callTimeoutMs: number | undefined;
  /** The name the agent sees instead of the server's (and instead of the prefixed one). */
  readonly rename: string | undefined;
  /** Parameters the agent may not send; hidden from the schema it sees. */
  readonly deny: readonly string[];
  /** Parameters the operator sets, in the file's order, values as parsed (big numbers intact). */
  readonly fixed: readonly (readonly [string, JsonValue])[];
  /** The grant a call needs; undefined when it needs none. */
  readonly permission: string | undefined;
  /** Carried on every receipt for the tool's results. */
  readonly dataClassification: string;
  /**
   * The tool reaches the operator's private data (a mailbox, a private store): once a session
   * has called it, a tool that reaches outside is refused for the rest of the session (source-to-sink).
   */
  readonly readsPrivate: boolean;
  /** How a successful call's effect is read back and checked; undefined when it is not. */
  readonly contract: Contract | undefined;
}

/** Where a contract reads a value: the call's arguments, the write's result, or the read-back's. */
export interface Selector {
  readonly from: 'arguments' | 'result' | 'readback';
  /** An RFC 6901 JSON Pointer into that value (its structuredContent, for the two results). */
  readonly pointer: string;
}

export const CHECK_OPS = ['equals', 'not_equals', 'less_than', 'greater_than', 'contains', 'present'] as const;

export type CheckOp = (typeof CHECK_OPS)[number];

export interface Check {
  readonly left: Selector;
  readonly op: CheckOp;
  /** Absent exactly for `present`. */
  readonly right: Selector | undefined;
}

/** An effect contract (docs/result-path.md): data only, never an expression. */
export interface Contract {
  /** The server's name of the read-only tool that reads the effect back. */
  readonly readbackTool: string;
  /** Each read-back argument and where its value is copied from (arguments or result only). */
  readonly readbackArguments: readonly (readonly [string, Selector])[];
  readonly checks: readonly Check[];
}

export interface ServerCommon {
  readonly id: string;
  /** When set, a tool that is not renamed is offered as `<prefix>_<tool>`. */
  readonly prefix: string | undefined;
  /** The version of the server's source the operator reviewed; what the server reports about
   * itself is never taken for it. Recorded in every audit record. */
  readonly sourceVersion: string | undefined;
}

/** A server the broker starts as a child process and speaks to over its stdio. */
export interface ProcessServerSpec extends ServerCommon {
  readonly url?: undefined;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: ReadonlyMap<string, string>;
}

/** A server already running somewhere, reached over MCP's Streamable HTTP transport. */
export interface UrlServerSpec extends ServerCommon {
  readonly url: URL;
}

export type ServerSpec = ProcessServerSpec | UrlServerSpec;

export interface Limits {
  readonly maxPages: number;
  readonly maxTools: number;
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** A result's text blocks together, in code points, after inspection. */
  readonly maxResultChars: number;
  /** A description shown to the agent, in code points. */
  readonly maxDescriptionChars: number;
  /** The longest line the server may send, in bytes; a longer one is never held whole. */
  readonly maxMessageBytes: number;
}

export interface Grant {
  /** The operator's name for the grant, or `grants[<index>]` when it has none: audit records
   * name the grant a call relied on. */
  readonly id: string;
  readonly permission: string;
  /** Milliseconds since the epoch; the grant is expired at and after this instant. */
  readonly expiresAt: number;
}

/** Each agent id with the server tool names it may see and call. */
export type Agents = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Which resources the agent may be offered and read: URI prefixes (`file:///notes/`) and URI
 * templates (`file:///notes/{id}.txt`), compared after the broker normalises a URI. Nothing
 * listed offers nothing.
 */
export interface ResourceAccess {
  readonly allow: readonly string[];
}

/**
 * What becomes of content the broker cannot inspect as text: images, audio, blobs, resource links
 * and embedded resources. `withhold` (the default) shows a placeholder; `pass` forwards it bounded
 * and normalised, inspecting the text it holds (docs/reference-broker.md, "Non-text content").
 */
export type NonText = 'withhold' | 'pass';

export interface Config {
  readonly server: ServerSpec;
  readonly rules: ReadonlyMap<string, Rule>;
  readonly limits: Limits;
  readonly grants: readonly Grant[];
  readonly policy: Policy;
  /** Undefined when the operator names no agents: one anonymous agent may use every tool. */
  readonly agents: Agents | undefined;
  /** Undefined: the agent is offered no resources, and the server is never asked for any. */
  readonly resources: ResourceAccess | undefined;
  /** The prompts the operator allows, by the server's name. Undefined: the agent is offered no
   * prompts, and the server is never asked for any. */
  readonly prompts: ReadonlySet<string> | undefined;
  /** What the server may ask of the agent and notify it of. */
  readonly serverRequests: ServerRequests;
  readonly nonText: NonText;
}

/** What the operator lets a server start on its own towards the agent (docs/reference-broker.md). */
export interface SamplingPolicy {
  readonly allow: boolean;
  /** Sampling requests per session. */
  readonly maxRequests: number;
  /** The largest `maxTokens` a request may ask for. */
  readonly maxTokens: number;
  /** Code points of a request's messages and system prompt together. */
  readonly maxMessageChars: number;
  /** Whether a request may offer the agent's model tools (and then only to an agent that declared `sampling.tools`). */
  readonly allowTools: boolean;
}

export interface ElicitationPolicy {
  readonly allow: boolean;
  readonly maxRequests: number;
  /** Code points of a request's message and requested schema's strings together. */
  readonly maxMessageChars: number;
}

export interface NotificationBounds {
  /** `notifications/message` per session. */
  readonly maxLogMessages: number;
  /** resources and prompts `list_changed` notices per session, together. */
  readonly maxListChanged: number;
}

export interface ServerRequests {
  readonly sampling: SamplingPolicy;
  readonly elicitation: ElicitationPolicy;
  /** The root URIs the server may be told of, of those the agent has. */
  readonly roots: readonly string[];
  readonly notifications: NotificationBounds;
}

/** One tool as the server listed it, with its parts kept as parsed trees. */
export interface ListedTool {
  readonly name: string;
  /** Its display name (MCP 2025-06-18 on), text the model may read as it reads the description. */
  readonly title?: string;
  readonly description: string | undefined;
  readonly inputSchema: JsonObject;
  readonly annotations: JsonObject | undefined;
  /** The structure the tool promises its structuredContent keeps to; undefined when none. */
  readonly outputSchema: JsonObject | undefined;
  /** How it may be run (MCP 2025-11-25 `ToolExecution`), with only the members the broker knows. */
  readonly execution?: JsonObject;
  /** Its `icons` as listed, when they are an array: judged by icons-safe before the agent sees any. */
  readonly icons?: JsonArray;
}

/** One page of the listing, as the listing guards see it. */
export interface ListingPage {
  /** 1 for the first page. */
  readonly number: number;
  readonly tools: readonly ListedTool[];
  readonly nextCursor: string | undefined;
}

export interface PinnedTool {
  readonly descriptionHash: string;
  /** The hash of the title as `descriptionHash` is taken; undefined for a tool pinned without one. */
  readonly titleHash?: string;
  /** As the broker read it at pin time (its known members); undefined when the tool had none. */
  readonly execution?: JsonObject;
  readonly schemaHash: string;
  /** The pinned input schema, parsed back from its canonical text. */
  readonly inputSchema: JsonObject;
  /** As the server sent them at pin time; undefined when it sent none. */
  readonly annotations: JsonObject | undefined;
  /** The output schema as pinned (canonical form parsed back); undefined when there was none. */
  readonly outputSchema: JsonObject | undefined;
  /** Its `icons` as the server listed them at pin time; undefined when it listed none. */
  readonly icons?: JsonArray;
}

/** Client capabilities as MCP 2025-11-25 declares them: what an agent declared, or the broker declares to a server. */
export interface ClientFacts {
  readonly sampling: boolean;
  readonly samplingTools: boolean;
  readonly elicitationForm: boolean;
  readonly elicitationUrl: boolean;
  readonly roots: boolean;
}

export interface Manifest {
  readonly server: string;
  /** The hash of the server's `instructions` at pin time (as a description's); undefined when it gave none. */
  readonly instructionsHash?: string;
  readonly tools: ReadonlyMap<string, PinnedTool>;
  /** The resources, templates and prompts pinned; undefined for a manifest made in no pin (serve --unpinned). */
  readonly features?: FeaturePins;
  /** The client capabilities the server was pinned under; undefined for a manifest made in no pin. */
  readonly capabilities?: ClientFacts;
}

/** Checks one call's arguments; returns what is wrong with them, or an empty list. */
export type Validator = (args: JsonValue) => string[];

export type Compiled = { readonly ok: true; readonly validate: Validator } | { readonly ok: false; readonly error: string };

/** What the agent is shown for one registered tool. */
export interface Presentation {
  readonly title?: string;
  readonly description: string | undefined;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations: JsonObject | undefined;
  readonly execution?: JsonObject;
  readonly icons?: JsonArray;
}

export interface RegisteredTool {
  /** The id of the server it comes from: the one its calls are forwarded to. Set by Load. */
  readonly server?: string;
  /** The server's name for it: what a call is forwarded as. */
  readonly tool: string;
  /** The name the agent sees and calls. */
  readonly name: string;
  /** Undefined only when the `classified` guard is disabled and the tool has no rule. */
  readonly effect: Effect | undefined;
  readonly shown: Presentation;
  readonly callTimeoutMs: number;
  /** Set when hint-consistency passed the tool only because the rule allows a mismatch. */
  readonly hintMismatchOverridden: string | undefined;
  /** The operator's rule; undefined only when the `classified` guard is disabled. */
  readonly rule: Rule | undefined;
  /** Checks a call against the shown schema; undefined when it did not compile (schema-compiles disabled). */
  readonly validator: Validator | undefined;
  /** Checks structuredContent against the pinned output schema; undefined when there is none. */
  readonly outputValidator: Validator | undefined;
  /** What the operator reviewed, which every decision about the tool relies on; undefined when
   * the tool is not pinned (the `pinned` guard disabled). */
  readonly pin: PinnedTool | undefined;
  /** With several servers: the names the agent is offered other servers' tools by, which this
   * server's words must not steer it to (`foreign-mentions`). */
  readonly foreign?: readonly string[];
}

/** A tool Load refused, and the guard that refused it. */
export interface Refusal {
  /** With several servers, the id of the server whose tool it is. */
  readonly server?: string;
  /** The server's name for the tool. */
  readonly tool: string;
  readonly guard: string;
  readonly reason: string;
}

/** A registered tool that no longer matches, and the guard that says so. */
export interface Drift {
  readonly tool: RegisteredTool;
  readonly guard: string;
  readonly reason: string;
}

export const REFUSAL_CODES = [
  'tool_input_schema_invalid',
  'parameter_not_allowed',
  'permission_not_granted',
  'grant_expired',
  'policy_denied',
  'approval_required',
  'approval_rejected',
  'approval_expired',
  'agent_chain_denied',
  'agent_chain_too_long',
  'tool_timeout',
  'server_unavailable',
  'argument_rejected',
  'output_schema_invalid',
  'result_withheld',
  'result_too_large',
  'verification_failed',
  'tool_quarantined',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface ToolRefusal {
  readonly code: RefusalCode;
  /** One human sentence; the text block reads `<code>: <sentence>`. */
  readonly sentence: string;
  /** The code's extra structuredContent fields, as docs/call-path.md lists them. */
  readonly fields: Readonly<Record<string, Plain>>;
}

export interface Receipt {
  readonly tool: string;
  readonly permission: string | undefined;
  readonly dataClassification: string;
}

export const AUDIT_DECISIONS = [
  'registered',
  'refused',
  'allowed',
  'call_refused',
  'approval_requested',
  'approval_granted',
  'approval_rejected',
  'call_answered',
  'call_rejected',
  'quarantined',
] as const;

export type AuditDecision = (typeof AUDIT_DECISIONS)[number];

/** How the input schema judged a call: `not_checked` when a refusal came first or no check ran. */
export type ValidationDecision = 'passed' | 'failed' | 'not_checked';

/** What every record of one call says about it (docs/call-path.md, the audit trail). */
export interface CallFacts {
  /** The name the agent called and the SHA-256 of the canonical JSON of the arguments it sent. */
  readonly operation: { readonly name: string; readonly argumentsSha256: string };
  readonly validation: ValidationDecision;
  /** The grant the call relied on (or, refused as expired, the one that expired); null when none. */
  readonly grant: Grant | null;
  /** Whether the call had been sent to the server when the record was written. */
  readonly dispatched: boolean;
  /** On call_answered with a result: the receipt the agent got. */
  readonly receipt: Receipt | null;
}

// Resources, resource templates and prompts: the descriptors a server lists, what the agent is
// offered of them, and the requests the agent makes about them (src/features/).

export type FeatureKind = 'resource' | 'template' | 'prompt';

/** One descriptor as the server listed it: `key` is its URI, URI template or prompt name. */
export interface Descriptor {
  readonly kind: FeatureKind;
  readonly key: string;
  readonly listed: JsonObject;
}

/** The pins of each kind, by key: SHA-256 of the canonical JSON of the descriptor as listed. */
export type FeaturePins = ReadonlyMap<FeatureKind, ReadonlyMap<string, string>>;

/** What a descriptor guard sees at Load. */
export interface DescriptorSubject {
  readonly descriptor: Descriptor;
  /** What the agent would be shown, as the guards before this one left it. */
  readonly shown: JsonObject;
  readonly config: Config;
  /** Undefined when nothing was pinned (`serve --unpinned`). */
  readonly pins: FeaturePins | undefined;
}

export type DescriptorVerdict = { readonly ok: true; readonly shown: JsonObject } | { readonly ok: false; readonly reason: string };

/** What the agent is offered, fixed at Load for the whole session. */
export interface Offered {
  readonly resources: readonly JsonObject[];
  readonly templates: readonly JsonObject[];
  readonly prompts: readonly JsonObject[];
  /** Every name, URI and template the server listed that the agent is not offered. */
  readonly hidden: ReadonlySet<string>;
}

/** One request of the agent's about a resource, a prompt or a completion. */
export interface FeatureRequest {
  readonly method: string;
  /** As the agent sent them, or as a guard rewrote them (a normalised URI). */
  readonly params: JsonObject;
}

/** A refusal the agent gets as a JSON-RPC error; the server was never asked. */
export type FeatureRequestVerdict = { readonly ok: true; readonly params: JsonObject } | { readonly ok: false; readonly error: JsonObject };

/** What an answer guard sees of the server's answer. */
export interface AnswerSubject {
  readonly request: FeatureRequest;
  readonly offered: Offered;
  readonly limits: Limits;
  readonly nonText: NonText;
}

/** The answer as the agent may see it, or why the agent gets none of it (a JSON-RPC error). */
export type AnswerVerdict = { readonly ok: true; readonly result: JsonValue } | { readonly ok: false; readonly error: JsonObject };
