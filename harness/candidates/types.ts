import type { Revision } from '../agent/revisions.js';
import type { AdapterFlaw, OperatorConfig, ServerOperator } from '../scenario/types.js';

/**
 * The adapter protocol between the harness and a broker under test. It is deliberately small
 * (in the spirit of the MCP SDK's Transport and Bowtie's harness protocol): declare yourself,
 * pin, start and hand back a channel the agent speaks MCP over, report what you loaded. Expected
 * outcomes are never passed through it.
 *
 * gauntlet-candidate/2 is language-neutral: newline-delimited JSON over an adapter process's
 * stdio (docs/adapter-protocol.md, schemas in protocol/gauntlet-candidate-2/), spoken by
 * process-adapter.ts. The `Candidate` interface below is the in-process binding of the same
 * protocol, for adapters written as modules: the same declaration and the same hooks.
 */
export const ADAPTER_PROTOCOL = 'gauntlet-candidate/2';

/**
 * Protection tags. A scenario lists the ones it tests; a candidate declares the ones it claims.
 * Every scenario runs whatever the candidate claims: the report says whether a result was
 * claimed ("exposed, claimed" against "exposed, not claimed"). Only a missing hook or transport
 * the scenario cannot run without (harness/candidates/hooks.ts) makes it `unsupported`.
 */
export const FEATURES = {
  listing: 'offers the agent a tools/list answer',
  calls: 'forwards tools/call',
  pinning: 'pins descriptions and input schemas and refuses drift',
  classification: 'takes each tool effect class from an operator rule',
  'listing-bounds': 'bounds listings in pages and tools and refuses duplicates',
  'description-override': 'lets the operator replace a tool description',
  'load-report': 'reports which tools registered and why others were refused',
  parameters: 'hides denied and fixed parameters and injects fixed values',
  'schema-checks': 'refuses schemas that reach outside themselves or are not object schemas',
  naming: 'offers tools under the operator rename and enforces name rules',
  'input-validation': 'validates arguments against the pinned schema before dispatch',
  grants: 'requires an unexpired grant for a tool permission',
  policy: 'allows, denies or holds each effect class',
  approvals: 'holds calls for an out-of-band approval bound to the exact call',
  agents: 'filters listings and calls per agent identity',
  'agent-chains': 'checks every hop of a chain of upstream agents',
  audit: 'keeps an audit trail of its decisions',
  'audit-chain': 'chains its audit records by hash in the form docs/call-path.md gives',
  timeouts: 'bounds each call in time and survives a dead server',
  'result-caps': 'caps descriptions and results, marking truncation, and bounds what it holds of a result',
  withholding: 'withholds content it cannot inspect, such as images, audio and resources',
  'output-validation': 'validates structured results against the output schema, terminally',
  inspection: 'normalises and inspects descriptors, arguments and results within hard bounds',
  'effect-contracts': 'confirms writes with a read-back before reporting success',
  drift: 'keeps the offered tools fixed when the server says they changed, and quarantines tools that drift during a session',
  'config-checks': 'refuses a malformed rule, a rule for an unpinned tool, and a missing or foreign manifest before it starts the server',
  'process-isolation': 'starts its server in a process group of its own, and does not let it outlive the broker',
  'config-file-modes': 'reads its rules and manifest only from regular files the user owns and nobody else can write',
  'server-env': "starts the server with the environment the operator set for it, and keeps those values from the agent",
  'http-upstreams': 'reaches a server by URL over Streamable HTTP, refusing non-public addresses and redirects and capping bodies',
  'multi-server': "serves several servers at once, each tool under its own server's name, each call, token and change kept to its own server",
  resources: 'offers only the resources the operator allows and the pin holds, refuses any other URI before the server is asked, and withholds, inspects and caps contents',
  prompts: 'offers only the prompts the operator allows and the pin holds, validates their arguments, and inspects their messages',
  completion: 'answers completions only for offered prompts and templates, bounded, naming nothing hidden',
  'http-front-door': "serves the agent over Streamable HTTP on loopback, refusing foreign Origins and Hosts, with unguessable session ids bound to their credential, never passing the agent's credential on",
  sampling: "refuses a server's sampling requests unless the operator allows them, and bounds, inspects and never tool-enables them unless the agent declared it",
  elicitation: "refuses a server's elicitation unless the operator allows it, refuses forms asking for credentials, shows a URL whole and never fetches it",
  roots: 'tells a server only the roots the operator permits it',
  icons: "shows a tool's icons only when they are safe to render: https on the server's own origin, or a small data: image of a raster type whose bytes match it",
  notifications: "redacts, escapes and bounds a server's log messages and list_changed notices, and forwards progress only for the agent's own tokens",
  caching: "marks every result it answers for the agent's own authorization context, fresh no longer than it can answer for, and an interim or retried result not cacheable, whatever the server's caching hints say",
} as const;
export type Feature = keyof typeof FEATURES;

/**
 * A protection the adapter enforces itself, not its broker: a FEATURES tag or a requirement id of
 * docs/requirements.md, and how the adapter does it. A case testing it is reported as held by the
 * adapter (its verdict unchanged): a user running the broker without this adapter does not have it.
 */
export interface AdapterProtection {
  protection: string;
  how: string;
}

export interface CandidateInfo {
  name: string;
  version: string;
  adapterProtocol: typeof ADAPTER_PROTOCOL;
  /** The protections the candidate claims to enforce. */
  claims: readonly Feature[];
  /** How the broker can reach a server: started from a command line, or dialled at a URL (default: command). */
  upstreams?: ReadonlyArray<'command' | 'url'>;
  /**
   * `many`: the candidate serves several servers at once, from `SessionSpec.servers` (the
   * `multi-server` hook). Default `one`: a scenario naming several servers is `unsupported`.
   */
  servers?: 'one' | 'many';
  /** The adapter writes `SessionSpec.flaw` into the broker's own configuration (docs/scenario-format.md). */
  configFlaws?: boolean;
  /** Parts of the neutral operator configuration the broker cannot express, noted on every case. */
  unapplied?: readonly string[];
  /** How the agent can reach the broker: over its stdio, or over Streamable HTTP (default: stdio). */
  agentTransports?: ReadonlyArray<'stdio' | 'http'>;
  /**
   * The MCP revisions the broker serves to an agent (default: 2025-11-25 alone). A case of
   * another revision is `unsupported` (harness/candidates/served-revisions.ts).
   */
  revisions?: readonly Revision[];
  /**
   * The broker signs in to a server that asks with OAuth, opening the authorization URL for the
   * user (the `oauth-client` hook). A broker that does no OAuth never opens a URL a server chose:
   * the scenarios about such URLs (the `opened_*` checks) cannot apply to it, and are unsupported.
   */
  oauthClient?: boolean;
  /** The protections the adapter provides itself around its broker (default: none). */
  adapterProvides?: readonly AdapterProtection[];
}

/** How to start the hostile server; the candidate launches it as its upstream. */
export interface UpstreamCommand {
  id: string;
  command: string;
  args: string[];
}

/**
 * A server already running, which the operator names by URL; the candidate dials it, or refuses
 * to. The operator's `server_url` and `allow_private_origin` arrive with their placeholders
 * filled in.
 */
export interface UpstreamUrl {
  id: string;
  url: string;
}

/** One of several servers: the scenario's name for it, how it is reached, and its part of the operator's configuration. */
export interface NamedUpstream {
  name: string;
  upstream: UpstreamCommand | UpstreamUrl;
  /** With `server_url` and `allow_private_origin` filled in, as for a single server. */
  operator: ServerOperator;
}

export interface SessionSpec {
  /** A private directory for the candidate's files; removed after the scenario. */
  workdir: string;
  /** The server; with `servers`, the first of them. */
  upstream: UpstreamCommand | UpstreamUrl;
  /**
   * Every server, in the scenario's order, when it names several: only for a candidate declaring
   * `servers: 'many'`. `operator` then holds what they share (grants, policy, agents, limits,
   * credentials) and an empty `tools`.
   */
  servers?: NamedUpstream[];
  operator: OperatorConfig;
  /**
   * For one start only: a defect the adapter writes into its own configuration file, for the
   * configuration-safety scenarios (docs/scenario-format.md). Absent otherwise.
   */
  flaw?: AdapterFlaw;
  /** The agent identity the session is for, when the operator configured agents. */
  agent?: string;
  /**
   * The environment the broker itself runs in: the operator's, holding secrets no server was
   * given. An adapter starts its broker with it.
   */
  env: NodeJS.ProcessEnv;
  /** Bound on any single adapter operation. */
  timeoutMs: number;
  /**
   * When set, the adapter starts every process of its candidate through this command (followed
   * by the candidate's own command and arguments): it enters the network enclosure the scenario's
   * server listens in (docs/network.md).
   */
  launchPrefix?: readonly string[];
  /**
   * A PEM file holding a certificate authority the operator trusts besides the system's: the one
   * that issued the certificate of a scenario's HTTPS server (the kit's `http_tls` knob). An
   * adapter makes its candidate trust it by the candidate's own means.
   */
  trustedCa?: string;
  /**
   * When set, the agent reaches the broker over Streamable HTTP, sending `headers` with every
   * request (its own credential to the broker, when it has one): the adapter starts its broker
   * serving HTTP on a loopback port and returns the HTTP channel (`spawnHttpChannel` with these
   * headers). Only for a candidate whose `agentTransports` include `http`. A broker whose front
   * door requires a credential of its own gets it to the agent through the channel: an adapter
   * module passes it as `spawnHttpChannel`'s `credential` (or, for a token the broker prints as it
   * starts, `printedCredential`), a protocol adapter answers `start` with `front_door_auth`
   * (docs/adapter-protocol.md).
   */
  agentHttp?: { headers: Record<string, string> };
}

/**
 * The credential a broker's front door requires of every client, which the adapter provides
 * (a token the broker printed, or one the adapter configured it with): one header and its value,
 * e.g. `Authorization: Bearer ...`. The harness never logs it.
 */
export interface FrontDoorCredential {
  /** The header's name, as HTTP spells it (compared without regard to case). */
  header: string;
  value: string;
}

/** The HTTP front door an HTTP channel speaks to: where, and the session the agent holds there. */
export interface FrontDoorSession {
  url: string;
  /** The Mcp-Session-Id the broker gave the agent at initialize; undefined before, or when it gave none. */
  sessionId(): string | undefined;
  /** The headers the agent sends with every request besides the transport's own, `credential` included. */
  headers: Record<string, string>;
  /**
   * The front door's credential, when the adapter provided one: the agent sends it, and so does
   * any other client a scenario says holds it (an `http` step's `credential: agent`).
   */
  credential?: FrontDoorCredential;
}

export interface ExitStatus {
  code: number | null;
  signal: string | null;
  /** Why the process never ran, when it could not be started: the spawn error's message. */
  error?: string;
}

/** A bidirectional line channel to whatever the agent talks to: newline-delimited JSON-RPC. */
export interface AgentChannel {
  send(line: string): void;
  onLine(handler: (line: string) => void): void;
  /** Settles when the other side has gone away. */
  readonly exited: Promise<ExitStatus>;
  /** The process-group leader behind the channel, for containment. */
  readonly pid: number | undefined;
  /** Ends the session; afterwards no process started for it is alive. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Optional: ends the candidate's input, as an agent hanging up does, and nothing more. With it
   * the harness judges what the candidate leaves running by its own doing before close() contains
   * the rest; without it, a candidate that exits at once has its group killed by close() before
   * the judgement, and a server's child left in that group is not seen.
   */
  endInput?(): void;
  /**
   * Optional: the last `maxBytes` (4,096 unless given) of what the process wrote on stderr, kept
   * in memory so it outlives the scenario's folder: a report can say why a candidate went away.
   */
  stderrTail?(maxBytes?: number): string;
  /** For a channel over Streamable HTTP: the front door and the agent's session there. */
  readonly frontDoor?: FrontDoorSession;
  /**
   * Optional: what has arrived of the messages the broker has begun and not finished (a line
   * without its newline, a body or an event still open), one line each; '' when none. A call that
   * runs out of time is judged on it for harm: it reached the agent, finished or not.
   */
  arriving?(): string;
}

/**
 * A candidate's load report in neutral form: tool names as the server named them, and every
 * string exactly as the candidate wrote it (escaped or not: that is for the harness to judge).
 */
export interface NeutralLoadReport {
  /** Each registered tool, the name the agent is offered, and its effect class (null if none). */
  registered: Array<{ tool: string; name: string; effect: string | null }>;
  /** Each refused tool and the reason given, other than being unpinned or unclassified. */
  refused: Array<{ tool: string; reason: string }>;
  unpinned: string[];
  unclassified: string[];
  hint_mismatch_overridden: string[];
}

/** An audit record in neutral form (docs/call-path.md). */
export interface NeutralAuditRecord {
  decision: string;
  tool: string | null;
  tool_exists?: boolean;
  code?: string | null;
  agent?: string | null;
  /** On call records: the name the agent called and the digest of the arguments it sent. */
  operation?: { name: string; arguments_sha256: string } | null;
  validation?: 'passed' | 'failed' | 'not_checked' | null;
  grant?: { id: string; permission: string; expires_at: string } | null;
  dispatched?: boolean | null;
  receipt?: { tool: string; permission: string | null; trust: string; data_classification: string } | null;
  /** The pinned hashes the decision relied on (docs/call-path.md). */
  contract?: { description_sha256: string | null; input_schema_sha256: string } | null;
  source_version?: string | null;
}

/** The operator's out-of-band answer to one approval request. */
export interface ApprovalDecision {
  requestId: string;
  decision: 'approve' | 'reject';
  expiresAt?: string;
}

export interface PinOutcome {
  ok: boolean;
  detail: string;
  /**
   * The pin was cut off by the session's `timeoutMs`, not refused by the candidate: it reviewed
   * nothing and gave no account, so the case ends as an `error` instead of going on to a start
   * that works around a refusal the candidate never made.
   */
  timedOut?: true;
}

export interface Candidate {
  readonly info: CandidateInfo;
  /** Review time: the candidate records what the server presents. A refusal is not a failure. */
  pin(spec: SessionSpec): Promise<PinOutcome>;
  start(spec: SessionSpec): Promise<AgentChannel>;
  loadReport?(spec: SessionSpec): Promise<NeutralLoadReport | undefined>;
  /**
   * After a start that ended in `exit` without serving: the reason the candidate gave for refusing
   * to serve (the operator's configuration, or what the server presented), or undefined when the
   * exit was anything else (a crash). Without it only an initialize error explains a refusal.
   */
  startRefusal?(spec: SessionSpec, exit: ExitStatus): Promise<string | undefined>;
  /**
   * For a broker that offers tools, prompts, resources and templates under names of its own (an
   * aggregator's `<server>__<name>`, a URI included): the name it offers for a name the scenario
   * uses (the server's, or the operator's rename or prefix), and the scenario's name for one it
   * offers (undefined for a name of its own). Requests are sent, and listings read, through it
   * (offered-names.ts).
   */
  names?: { offered(name: string): string; scenario(offered: string): string | undefined };
  /** The operator's channel: decide a pending approval, outside the agent's connection. */
  approve?(spec: SessionSpec, decision: ApprovalDecision): Promise<void>;
  audit?(spec: SessionSpec): Promise<NeutralAuditRecord[]>;
  /** The audit trail's lines exactly as written, for the `audit-chain` feature. */
  auditLines?(spec: SessionSpec): Promise<string[]>;
  /**
   * Optional: ends what the adapter keeps for the whole run (a protocol adapter's process), once,
   * after the last scenario. Whoever loaded the candidate calls it.
   */
  dispose?(): Promise<void>;
}

/** What an adapter module (`--candidate ./my-adapter.js`) exports as default. */
export type CandidateFactory = () => Candidate | Promise<Candidate>;
