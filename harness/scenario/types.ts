/**
 * The scenario format, as TypeScript. `scenario.schema.json` is the normative definition; these
 * types describe what the loader hands the runner once a file has passed that schema.
 */
import type { CraftedRetry } from '../agent/input-required.js';
import type { Revision } from '../agent/revisions.js';

export type Level = 'MUST' | 'SHOULD';
export type Kind = 'attack' | 'control';
export type Effect = 'read_only' | 'local_change' | 'remote_change' | 'destructive';

/** The operator's rule for one tool, in the broker-neutral form every adapter translates. */
export interface ToolRule {
  effect: Effect;
  description?: string;
  allow_hint_mismatch?: boolean;
  /** The `idempotentHint` the agent is shown (CLS-3); absent, none: never the server's. */
  idempotent?: boolean;
  /**
   * The `openWorldHint` the agent is shown (CLS-3); absent, the effect class's (local_change
   * false, remote_change true) or none. It may not contradict a change class.
   */
  open_world?: boolean;
  /** The name the agent sees instead of the server's. */
  rename?: string;
  /** Parameters the agent may not send; hidden from the schema it sees. */
  deny?: string[];
  /** Parameters the operator sets; hidden, and injected into every call. */
  fixed?: Record<string, unknown>;
  /** The grant a call needs. */
  permission?: string;
  timeout_ms?: number;
  data_classification?: string;
  /** The tool reaches the operator's private data (POL-9): after it, a tool reaching outside must not run. */
  reads_private?: boolean;
  /**
   * What committing a write looks like, checked by a read-back (docs/result-path.md). Only a
   * scenario whose start expects `refused-before-launch` may give one of another shape.
   */
  contract?: EffectContract;
}

export interface Selector {
  from: 'arguments' | 'result' | 'readback';
  pointer: string;
}

export interface EffectContract {
  readback: { tool: string; arguments: Record<string, Selector> };
  checks: Array<{ left: Selector; op: 'equals' | 'not_equals' | 'less_than' | 'greater_than' | 'contains' | 'present'; right?: Selector }>;
}

export type Decision = 'allow' | 'deny' | 'approve';

export interface OperatorConfig {
  /** When set, tools that are not renamed are offered as `<prefix>_<tool>`. */
  prefix?: string;
  /** The version of the server's source the operator reviewed; audit records name it. */
  source_version?: string;
  tools: Record<string, ToolRule>;
  /** Variables the operator sets in the server's environment; a value may be a credential lent to it. */
  env?: Record<string, string>;
  /** Each grant may carry an `id`, which audit records name the grant by. */
  grants?: Array<{ id?: string; permission: string; expires_at: string }>;
  policy?: Partial<Record<Effect, Decision>>;
  /** Each agent identity and the server tools it may use. */
  agents?: Record<string, { tools: string[] }>;
  limits?: {
    max_pages?: number;
    max_tools?: number;
    max_result_chars?: number;
    max_description_chars?: number;
    /** Bound on starting the server, the handshake and the whole listing together. */
    connect_timeout_ms?: number;
  };
  /**
   * The URL the operator names an HTTP server by (docs/network.md). `{port}` stands for the port
   * the scenario's own server listens on (always on 127.0.0.1), `{canary_port}` for the canary's.
   * Absent for an HTTP server: `http://127.0.0.1:{port}/mcp`.
   */
  server_url?: string;
  /**
   * The one private origin the operator opts in to reaching, written with the same placeholders.
   * Each adapter passes it by its candidate's own opt-in, never in the configuration file (NET-6).
   */
  allow_private_origin?: string;
  /**
   * Hostname to token: the credentials the operator gives the candidate for HTTP servers. Each
   * adapter passes them by its candidate's own means, never in the configuration file (CRD-1).
   */
  credentials?: Record<string, string>;
  /**
   * A token written into the server's entry of the configuration file itself: what CRD-1 says a
   * candidate must never take a token from.
   */
  config_token?: string;
  /**
   * The name of a variable, written into the server's entry of the configuration file, whose value
   * a naive candidate would send to the server as its bearer token: the seed's "URL and an
   * environment variable" row, which CRD-3 says must not hand over the candidate's own secrets.
   */
  config_token_env?: string;
  /**
   * In a scenario naming several `servers`, each one's part of the configuration, by the
   * scenario's name for it (the top-level `tools` is then empty, and `prefix`, `env`,
   * `source_version`, `server_url` and `allow_private_origin` are written here instead).
   * `credentials` stays top-level: it maps hosts, whichever server they serve.
   */
  servers?: Record<string, ServerOperator>;
  /**
   * The resources the agent may be offered and read: URI prefixes (`file:///notes/`) and URI
   * templates (`file:///notes/{id}.txt`). Absent: no resources at all (fail closed).
   */
  resources?: { allow: string[] };
  /** The prompts the agent may be offered and get, by the server's name. Absent: none. */
  prompts?: Record<string, Record<string, never>>;
  /**
   * The origins a browser page may reach the candidate's HTTP front door from (docs/front-door.md);
   * a request with any other Origin must be refused. Only for an agent reached over HTTP.
   */
  allowed_origins?: string[];
  /**
   * The operator has the front door require a credential of every client (docs/front-door.md):
   * the adapter configures one and provides it to the harness (`front_door_auth`). A broker that
   * always requires one needs no telling. Only for an agent reached over HTTP.
   */
  front_door_credential?: boolean;
  /**
   * What becomes of content the candidate cannot inspect as text (images, audio, blobs, resource
   * links, embedded resources): `withhold` (default) replaces it with a placeholder, `pass`
   * forwards it, bounded and normalised, inspecting what text it holds.
   */
  non_text?: 'withhold' | 'pass';
  sampling?: ServerRequestsConfig['sampling'];
  elicitation?: ServerRequestsConfig['elicitation'];
  roots?: ServerRequestsConfig['roots'];
  notifications?: ServerRequestsConfig['notifications'];
}

/**
 * The agent's side of server-initiated requests: the client capabilities it declares and what it
 * answers. Each present member declares its capability; absent, the agent declines the request.
 */
export interface ClientSide {
  /** Declares `sampling` (with `sampling.tools` when `tools`), and answers with a text message. */
  sampling?: { tools?: boolean; reply?: string };
  /** Declares `elicitation` (form mode unless `form: false`, URL mode with `url`); `answer` is its reply (default: decline). */
  elicitation?: { form?: boolean; url?: boolean; answer?: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean> } };
  /** Declares `roots`, and answers roots/list with these. */
  roots?: Array<{ uri: string; name?: string }>;
  /** 2026-07-28: declares the tasks extension, and follows a call answered with a task to its end (harness/agent/tasks.ts). */
  tasks?: boolean;
}

/** What the operator lets a server ask of the agent and notify it of, and the bounds (broker-neutral). */
export interface ServerRequestsConfig {
  /** Default: refused. */
  sampling?: {
    allow: boolean;
    /** Sampling requests per session. */
    max_requests?: number;
    /** The largest `maxTokens` a request may ask for. */
    max_tokens?: number;
    /** The most characters a request's messages and system prompt may hold together. */
    max_message_chars?: number;
    /** Whether a request may offer tools (only ever to an agent that declared `sampling.tools`). */
    allow_tools?: boolean;
  };
  /** Default: refused. */
  elicitation?: { allow: boolean; max_requests?: number; max_message_chars?: number };
  /** Roots the server may see (URIs): of the agent's roots, only these. Absent: none. */
  roots?: string[];
  /** Bounds on what the server may notify the agent of, per session. */
  notifications?: { max_log_messages?: number; max_list_changed?: number };
}

/** One server's part of the operator's configuration, when a scenario names several. */
export type ServerOperator = Pick<OperatorConfig, 'prefix' | 'source_version' | 'tools' | 'env' | 'server_url' | 'allow_private_origin'>;

export interface ServerSpec {
  /** A catalogue id from servers/catalogue.ts. */
  catalogue: string;
  /** `http`: the harness runs the server on 127.0.0.1 and the operator names it by URL. */
  transport?: 'stdio' | 'http';
  /**
   * Where an HTTP server listens (IPv4 or IPv6; default 127.0.0.1), or several addresses served on
   * one port. Any other address, or any `hosts` or `resolves`, puts the server and the candidate
   * in a network enclosure of the harness's own making, whose loopback carries the addresses
   * (docs/network.md).
   */
  listen?: string | string[];
  /** Names the enclosure's /etc/hosts resolves, each to an address its loopback carries. */
  hosts?: Record<string, string>;
  /**
   * Names the enclosure's own DNS server answers, each with IPv4 addresses in turn: the nth A query
   * since the candidate was last pinned or started gets the nth, every later one the last.
   */
  resolves?: Record<string, string[]>;
  knobs?: Record<string, string | number | boolean>;
}

/**
 * What the agent may observe in answer to a call. `refused` is a tool error or a protocol error;
 * `none` means the call is still in flight after `within_ms`, for steps that close during a call.
 */
export type CallOutcome = 'result' | 'refused' | 'tool-error' | 'protocol-error' | 'none';

export interface EffectiveHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ListExpectation {
  includes?: string[];
  excludes?: string[];
  /** The exact description the agent must see for a tool. */
  descriptions?: Record<string, string>;
  /** Hints as the agent would read them, with MCP's defaults applied to absent ones. */
  effective_hints?: Record<string, EffectiveHints>;
  count?: number;
  /** Parameters that must appear nowhere in the tool's schema's properties or required list. */
  hidden?: Record<string, string[]>;
  /** Names the tool's schema must still list as required. */
  required?: Record<string, string[]>;
  /** The most code points a tool's description may have. */
  description_max_chars?: Record<string, number>;
  /** Strings a tool's description must not contain. */
  description_excludes?: Record<string, string[]>;
  /** Strings nowhere in the listing, keys included (harness/expect/list/listing-excludes.ts). */
  listing_excludes?: string[];
  /** Members of a tool's entry the agent must receive as given (harness/expect/list/members.ts). */
  members?: Record<string, Record<string, unknown>>;
  /**
   * The listing is the session's first one again: the same tools, each the same JSON value
   * (name, description, input schema, annotations and all).
   */
  unchanged?: true;
}

export interface CallExpectation {
  agent: CallOutcome;
  /** The machine-readable refusal code (structuredContent.code) of a tool error. */
  code?: string;
  /** How many `tools/call` requests for this tool the server received because of this step. */
  server_received?: number;
  /**
   * With several servers: how many `tools/call` requests (of any tool) each named server received
   * because of this step, from its own ledger records.
   */
  servers_received?: Record<string, number>;
  /** Arguments the server must have received with these values (the first call of the step). */
  server_arguments?: Record<string, unknown>;
  /** Arguments the server must not have received. */
  server_arguments_absent?: string[];
  /** The answer must come within this time; no answer by then fails the step. */
  within_ms?: number;
  /** The refusal must be indistinguishable from one for a tool that exists nowhere. */
  answers_like_unknown?: boolean;
  /**
   * Strings the text the agent was shown (a result's text blocks, or a protocol error's message)
   * must contain, and must not contain.
   */
  text_includes?: string[];
  /** That text holds no raw control, bidi or zero-width character: what the server chose is escaped. */
  text_escaped?: boolean;
  /** Keys the result's `_meta` must carry, and must not carry. */
  meta_includes?: string[];
  meta_excludes?: string[];
  /** Strings that appear nowhere the agent received from the call until the next step that talks to the broker, on any channel. */
  answer_excludes?: string[];
  /** The most UTF-8 bytes the agent may receive from the call until the next step that talks to the broker, on any channel. */
  answer_max_bytes?: number;
  /** The most code points the agent may be shown over all text blocks. */
  text_max_chars?: number;
  /** Whether the text ends in the truncation marker of docs/result-path.md, counting what was sent. */
  truncated?: boolean;
  /** An after-dispatch rejection: it must say the call already ran and must not be retried. */
  already_ran?: boolean;
  /** Content block types the agent must not receive. */
  content_types_absent?: string[];
  /** Blocks the agent must receive, each matched on the members given. */
  content_includes?: Array<{ type: string } & Record<string, unknown>>;
  structured?: 'present' | 'absent';
  /**
   * What an approval_required refusal must name (docs/call-path.md): the tool as the agent calls
   * it, and the exact arguments the server would receive, as JSON text.
   */
  approval_request?: { tool: string; arguments: Record<string, unknown> };
  /** Fields the result's receipt (`_meta["io.mcp-gauntlet/receipt"]`, docs/call-path.md) must carry. */
  receipt?: Record<string, string | null>;
  /** Bound on the broker's resident memory growth across this call, in MiB. */
  memory_growth_max_mib?: number;
  /** How many hostile-server processes may still be alive once the agent has this call's answer. */
  servers_alive?: number;
  /** The requests the broker sent the agent from the call until the next step that talks to it, by method, and strings they carried whole. */
  agent_requests?: { max?: Record<string, number>; min?: Record<string, number>; includes?: string[]; no_context?: true };
  /** What the server got back for the requests it started during the call (its ledger's `reply` records). */
  server_replies?: { answered?: ServerRequestMethod[]; refused?: ServerRequestMethod[]; roots_include?: string[]; roots_exclude?: string[] };
  /** The notifications the broker sent the agent from the call until the next step that talks to it, by method, and whether they were escaped. */
  notifications?: { max?: Record<string, number>; min?: Record<string, number>; escaped?: true };
  /** Every progress notification the agent received names the token the step issued. */
  progress_own_only?: true;
}

/** The requests a server can start that a scenario judges the replies to. */
export type ServerRequestMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/** Arguments made from the schema the agent was shown, instead of written out. */
export type GeneratedArguments = { valid: true; seed?: number } | { break: BreakableKeyword; seed?: number };

export const BREAKABLE_KEYWORDS = [
  'type',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'const',
  'maxItems',
  'uniqueItems',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'not',
  'dependentRequired',
] as const;
export type BreakableKeyword = (typeof BREAKABLE_KEYWORDS)[number];

export interface CallStep {
  /** The name the agent calls (after any rename). */
  tool: string;
  /** The server's name for the tool, when it differs from what the agent calls. */
  server_tool?: string;
  arguments?: Record<string, unknown>;
  generate?: GeneratedArguments;
  /** Upstream agents on whose behalf the call is made, outermost first. */
  chain?: string[];
  /** The progress token the agent asks progress notifications for (`_meta.progressToken`). */
  progress_token?: string;
  /** Before the call, the agent sends this many more of it at once, each answered or not, unawaited. */
  flood?: CallFlood;
  /** A 2026-07-28 retry the agent misuses: a forged state, other arguments, or the last retry replayed (harness/agent/input-required.ts). */
  retry?: CraftedRetry;
  /** 2026-07-28, with `client.tasks`: the agent cancels the task the call is answered with before polling it (harness/agent/tasks.ts). */
  cancel_task?: true;
  expect: CallExpectation;
}

/**
 * What the agent may observe in answer to a request that is not about tools (resources, prompts,
 * completion); a listing method is followed over every page.
 */
export interface RequestExpectation {
  /** `refused`: a JSON-RPC error. */
  agent?: 'result' | 'refused';
  /** With `agent`: the answer comes within this many milliseconds; silence or a dead channel fails it. */
  within_ms?: number;
  /** How many requests of the step's method reached the server because of this step. */
  server_received?: number;
  /** Strings that appear nowhere the agent received during the step, on any channel. */
  answer_excludes?: string[];
  /** Strings the agent's answer must carry somewhere. */
  answer_includes?: string[];
  /** Members the agent's result must carry as given (harness/expect/request/answer-members.ts). */
  answer_members?: Record<string, unknown>;
  /** The most UTF-8 bytes the agent may receive during the step, on any channel. */
  answer_max_bytes?: number;
  /** The most code points over every `text` the answer carries. */
  text_max_chars?: number;
  /** The refusal is indistinguishable from one to these params, which name something that exists nowhere. */
  answers_like_unknown?: Record<string, unknown>;
  /** Keys (URI, URI template or prompt name) the listing must offer, and must not. */
  includes?: string[];
  excludes?: string[];
  /** The exact description the agent must see, by key. */
  descriptions?: Record<string, string>;
  /** Strings the description of a listed item must not contain, by key. */
  description_excludes?: Record<string, string[]>;
}

export interface RequestStep {
  method: string;
  params?: Record<string, unknown>;
  expect: RequestExpectation;
}

export interface ApproveStep {
  /** The tool (as the agent calls it) whose latest approval request the operator decides. */
  tool: string;
  decision: 'approve' | 'reject';
  expires_at?: string;
}

export interface StartExpectation {
  /**
   * `refused-before-launch`: the candidate refuses to serve and never starts the server, as it
   * must for operator files it cannot trust (docs/scenario-format.md says why a dead candidate
   * still cannot pass). `refused-before-connect`: the candidate refuses to serve and nothing in
   * the scenario so far has so much as opened a connection to the server's listener.
   * `signing-in`: the server asks for an OAuth sign-in; whatever initialize gives (an answer, a
   * refusal, or silence for the step timeout while the candidate waits for the user) is not judged.
   */
  outcome: 'ready' | 'refused' | 'refused-before-launch' | 'refused-before-connect' | 'signing-in';
  /** For `refused-before-launch`: strings the reason the candidate's adapter gives must contain. */
  reason_includes?: string[];
  /** How many hostile-server processes may still be alive once the start has been refused. */
  servers_alive?: number;
  /** The outcome must be clear within this time; silence by then fails the step. */
  within_ms?: number;
  /**
   * The request the server must have received before a refusal counts (default `tools/list`):
   * a broker that dies before reaching the server has shown nothing.
   */
  after?: 'initialize' | 'tools/list';
  /** Every server started for this session runs in a process group other than the candidate's. */
  server_group?: 'separate';
  /** The exact `instructions` the agent's initialize answer carries (harness/expect/start/instructions.ts). */
  instructions?: string;
  /** Strings the `instructions` the agent receives must not contain. */
  instructions_excludes?: string[];
  /** Every socket the candidate's process group listens on is bound to a loopback address (read from /proc). */
  listens?: 'loopback';
}

/**
 * A defect written into the operator's files for one start (CFG-1 to CFG-3, CFG-5). A rule flaw
 * is in the first rule, in file order; a file flaw makes that file writable by its group and
 * others; a manifest flaw hands the candidate a corrupt pin store in place of the one pinned.
 */
export const CONFIG_FLAWS = [
  'unknown-effect',
  'missing-effect',
  'unknown-rule-field',
  'malformed-env',
  'misspelled-rule',
  'rules-file-writable',
  'manifest-file-writable',
  'manifest-truncated',
  'manifest-duplicate-key',
  'manifest-empty',
  'manifest-directory',
] as const;
export type ConfigFlaw = (typeof CONFIG_FLAWS)[number];

/**
 * The flaws the neutral operator form cannot express, so each adapter writes them into its own
 * configuration format; `misspelled-rule` is a neutral rule under a wrong name, made by the harness.
 */
export type AdapterFlaw = Exclude<ConfigFlaw, 'misspelled-rule'>;
export const CONFIG_FLAWS_NEUTRAL: readonly ConfigFlaw[] = ['misspelled-rule'];

export type Step =
  /** `server`: pin that other catalogue server instead of the scenario's own (CFG-4). */
  | { pin: { server?: string } | null }
  | { phase: 'review' | 'run' }
  | { start: { agent?: string; flaw?: ConfigFlaw; expect: StartExpectation } }
  | { list: { expect: ListExpectation } }
  | { call: CallStep }
  /** Any request but a tool's: resources, prompts, completion. */
  | { request: RequestStep }
  | { approve: ApproveStep }
  | { close: { expect?: CloseExpectation } | null }
  /** SIGKILL to the candidate's own process only (not its group), then count the survivors. */
  | { kill_candidate: { expect: CloseExpectation } }
  /** One raw HTTP exchange with the candidate's front door, as a client other than the agent may make it. */
  | { http: HttpStep };

/**
 * How the agent reaches the candidate: `http` has it serve Streamable HTTP on a loopback port,
 * the agent sending `Authorization: Bearer <token>` with every request when a token is given.
 */
export interface AgentSpec {
  transport: 'http';
  token?: string;
}

/** What an `http` step sends: a request of its own making, as an attacker or a browser page would. */
export interface HttpStep {
  /**
   * The client making the request: its own session id is kept from one step to the next. `agent`
   * is the agent's own session and credential.
   */
  client: string;
  request: 'initialize' | 'list' | 'call' | 'ping' | 'stream' | 'delete';
  /**
   * Which Mcp-Session-Id to present: the client's own (default), the agent's, one guessed from
   * the client's own (its last run of digits less one), or none.
   */
  session?: 'own' | 'agent' | 'guessed' | 'none';
  /**
   * Whether the client holds the front-door credential the adapter provided (`agent`: it sends
   * it, in place of a header of its name among `headers`) or not (`none`). Default: `agent` for
   * the client `agent`, `none` for any other. Nothing is sent for a candidate whose front door
   * has no credential.
   */
  credential?: 'agent' | 'none';
  /** For `call`. */
  tool?: string;
  arguments?: Record<string, unknown>;
  /** For `call`: the progress token the call asks progress under (`_meta.progressToken`). */
  progress_token?: string;
  /**
   * For `call`: another client calling the same tool at the same moment, each with its session's
   * event stream open, both requests under the same JSON-RPC id, as two clients numbering their
   * requests alike do.
   */
  together?: TogetherCall;
  /**
   * Headers to send besides the transport's own (names in lower case): `origin`, `host`,
   * `authorization`. `{port}` in a value stands for the front door's port.
   */
  headers?: Record<string, string>;
  expect: HttpExpectation;
}

/** The other client of a `together` call: its own session, arguments and progress token. */
export interface TogetherCall {
  client: string;
  arguments?: Record<string, unknown>;
  progress_token?: string;
}

export interface HttpExpectation {
  /** The HTTP status of the step's request (the last one, after an initialize's own). */
  status?: number | number[];
  /** Whether the request was served: a JSON-RPC result to a POST, an open stream to a GET, a 2xx to a DELETE. */
  answered?: boolean;
  /** Texts in no body the client received during the step. */
  received_excludes?: string[];
  /** How many tools/call requests the server received during the step. */
  server_received?: number;
  /** Whether the agent's own session still answers after the step. */
  agent_session?: 'alive' | 'ended';
  /** For a `together` call: each client receives its own answer and progress (`own`), and nothing of the other's (`own-only`). */
  together_received?: 'own' | 'own-only';
}

export interface CloseExpectation {
  /** How many server processes may still be alive `within_ms` after the agent closed (or the candidate was killed). */
  servers_alive: number;
  /** Kept under the harness's own grace period, so the verdict is the candidate's doing. */
  within_ms: number;
}

export interface LedgerExpectation {
  /** The most `tools/list` requests any single server process may receive. */
  list_requests_per_launch_max?: number;
  /** The fewest `tools/list` requests the server must have received in the whole scenario. */
  list_requests_min?: number;
  launches_min?: number;
  /** The fewest descendants the servers must have spawned (ledger `spawn` records). */
  spawns_min?: number;
  /** Exactly how many `tools/call` requests each named tool received over the whole scenario. */
  calls?: Record<string, number>;
  /** Exactly how many notifications of each method the servers sent of their own accord. */
  notices?: Record<string, number>;
  /** Arguments every `tools/call` of the named tool carried, with exactly these values; at least one call. */
  call_arguments?: Record<string, Record<string, unknown>>;
  /** Exactly how many TCP connections the HTTP server accepted at each address it listens on. */
  connections_to?: Record<string, number>;
}

export interface LoadReportExpectation {
  registered?: string[];
  refused?: string[];
  unpinned?: string[];
  unclassified?: string[];
  hint_mismatch_overridden?: string[];
  /** Registered tools with the name the agent is offered and the class the operator gave. */
  registered_as?: Record<string, { name: string; effect: Effect }>;
  /** Every tool the server listed to the serving candidate is accounted for; each refusal gives a reason. */
  complete?: boolean;
  /** No string in the report holds a raw control, bidi or zero-width character. */
  escaped?: boolean;
}

/**
 * Fields an audit record (the neutral form of docs/call-path.md) must have; `grant` and
 * `receipt` match when every field given is equal, or when both are null.
 */
export interface AuditPattern {
  decision: string;
  tool?: string;
  tool_exists?: boolean;
  code?: string;
  agent?: string;
  validation?: 'passed' | 'failed' | 'not_checked';
  dispatched?: boolean;
  grant?: { id?: string; permission?: string; expires_at?: string } | null;
  receipt?: { tool?: string; permission?: string | null; trust?: string; data_classification?: string } | null;
  source_version?: string;
}

export interface ScenarioExpectation {
  /** The caching hints every result the agent received may carry (harness/expect/scenario/cache-hints.ts). */
  cache_hints?: { max_ttl_ms: number };
  ledger?: LedgerExpectation;
  /** How many requests the canary listener may receive: schemas point there, nobody may fetch. */
  canary_requests?: number;
  /** Texts no header of any request the canary received may contain. */
  canary_headers_exclude?: string[];
  /** Texts (a server's shell payload) no argument of any URL opener the candidate started may hold. */
  opened_excludes?: string[];
  /** Every URL opener the candidate started was handed an https URL and no other scheme. */
  opened_https_only?: true;
  /** The file a server's shell payload creates is not in the session's folder. */
  payload_ran?: false;
  /** The candidate opened exactly one https URL, with this path: the honest sign-in page. */
  opened_path?: string;
  /** Variables every server launch must not, or must, have received (read from the ledger). */
  server_env?: {
    absent?: string[];
    present?: string[];
    /** Variables every launch received with exactly this value, as the operator wrote it. */
    equals?: Record<string, string>;
    /** Texts no variable of any launch may hold, in its value: the broker's own secrets. */
    values_exclude?: string[];
  };
  /**
   * Headers of every HTTP request the server received (read from the ledger; names in lower case):
   * `absent` names headers no request carried, `equals` gives the value every request carried,
   * `values_exclude` lists texts no header's value may contain.
   */
  server_headers?: { absent?: string[]; equals?: Record<string, string>; values_exclude?: string[] };
  /** Records the audit trail must hold; checked for candidates that declare `audit`. */
  audit?: AuditPattern[];
  /** Records the audit trail must not hold: what a forged line would add. */
  audit_absent?: AuditPattern[];
  /** The trail verifies as a hash chain (docs/call-path.md); for candidates declaring `audit-chain`. */
  audit_chain?: 'intact';
  /** No text field of any audit record carries a raw line break, control, bidi or zero-width character. */
  audit_escaped?: boolean;
  /**
   * Every call the agent made has its outcome record, naming the exact operation, whose
   * `dispatched` agrees with the ledger and whose receipt or code agrees with what the agent got.
   */
  audit_calls?: 'complete';
  /**
   * Records about a tool carry the hashes of what the server presented when it was pinned
   * (computed by the harness from the ledger) and the operator's reviewed source version.
   */
  audit_contract?: 'pinned';
  /** Checked only for candidates that declare the `load-report` feature. */
  load_report?: LoadReportExpectation;
  /**
   * With several servers: `ledger` and `server_headers` judged over each named server's own
   * ledger records, as the scenario-wide ones are over all of them.
   */
  servers?: Record<string, ServerLedgerExpectation>;
}

/** What one of several servers' own ledger records must show. */
export interface ServerLedgerExpectation {
  ledger?: LedgerExpectation;
  server_headers?: ScenarioExpectation['server_headers'];
}

export interface Scenario {
  id: string;
  title: string;
  requirements: string[];
  level: Level;
  kind: Kind;
  /** For an attack: the id of the benign control that proves the same path works. */
  control?: string;
  /** The protections the scenario tests: a candidate declaring them all claims to hold the attack. */
  claims: string[];
  description: string;
  /** Absent: the agent speaks to the candidate over stdio. */
  agent?: AgentSpec;
  /** The scenario's server; with `servers`, the first of them (the loader sets it). */
  server: ServerSpec;
  /**
   * Several servers behind one candidate, by the scenario's name for each (in file order): each
   * reached only on loopback (no `listen`, `hosts` or `resolves`), each its own ledger records.
   */
  servers?: Record<string, ServerSpec>;
  operator: OperatorConfig;
  /** The agent's side of server-initiated requests; absent, it declares nothing and declines them. */
  client?: ClientSide;
  steps: Step[];
  expect?: ScenarioExpectation;
  /**
   * The value of each variant axis this case was expanded for, by axis (scenario/variants.ts);
   * absent for a file that lists no `variants`.
   */
  variant?: Record<string, string>;
  /**
   * The MCP revision the case speaks end to end: the agent to the candidate, and every kit server
   * (scenario/variants.ts); absent is 2025-11-25.
   */
  revision?: Revision;
  /** A scenario of a feature its revision deprecates (sampling, roots, logging), shown so in reports. */
  legacy?: boolean;
  /** Where the file was loaded from, relative to the package root; the cases of one file share it. */
  file: string;
}

/** Calls the agent sends before a call step's own, none of them awaited: a peer that keeps calling. */
export interface CallFlood {
  readonly calls: number;
  /** Each flood call's `argument` is this many characters of `x`: what a broker must hold for it. */
  readonly padding_chars: number;
  readonly argument: string;
}
