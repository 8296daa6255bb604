import type { Answer } from '../agent/client.js';
import type { ReceivedHints } from '../agent/cache-hints.js';
import type { Candidate, ExitStatus, NeutralAuditRecord, NeutralLoadReport, SessionSpec } from '../candidates/types.js';
import type { CanaryRequest } from '../observe/canary.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';
import type { CallExpectation, CallStep, CloseExpectation, HttpExpectation, HttpStep, Kind, ListExpectation, RequestExpectation, RequestStep, ScenarioExpectation, StartExpectation } from '../scenario/types.js';
import type { Listener } from '../observe/listeners.js';
import type { SecretSighting } from '../observe/secrets.js';

/**
 * What a check is evidence of (docs/expectations.md):
 * - `harm`: an out-of-band observation of the attack's effect (the ledger, canary, processes,
 *   listeners, and what the agent received on any channel);
 * - `benign`: the ordinary use works, or the presence an absence needs to mean anything;
 * - `record`: the broker's own record where it is the scenario's subject (audit, load report,
 *   receipt), cross-checked against the ledger where the ledger can contradict it;
 * - `contract`: an agreed shape (codes, wording, markers): safe in another shape is `nonconformant`.
 */
export type CheckClass = 'harm' | 'benign' | 'record' | 'contract';
export const CHECK_CLASSES: readonly CheckClass[] = ['harm', 'benign', 'record', 'contract'];

/** Where in a scenario file an expectation is written. */
export type Block = 'start' | 'list' | 'call' | 'request' | 'close' | 'kill_candidate' | 'scenario' | 'http';

/** One expectation that was not met: which check, of what class, where, expected and observed. */
export interface Finding {
  check: string;
  class: CheckClass;
  step: string;
  expectation: string;
  expected: unknown;
  observed: unknown;
}

type Tool = Record<string, unknown>;

/** Ledger positions that bound a step: what it caused lies in `records.slice(mark, end)`. */
interface StepSpan {
  label: string;
  mark: number;
  end: number;
}

export interface StartFacts extends StepSpan {
  answer: Answer;
  /** How the candidate ended, for a start that did not serve; null when it did not stop in time. */
  exit?: ExitStatus | null;
  /** The reason the candidate's adapter gives for a refusal to serve (`startRefusal`). */
  refusal?: string;
  /** Whether the candidate has the `startRefusal` hook at all. */
  canExplain: boolean;
  /** The candidate's process group. */
  pgid: number | undefined;
  /** What the harness read from /proc of each launched server's group; null where /proc lacks it. */
  survivors?: number[];
  /** The sockets the candidate's process group listens on, read from /proc (`listens`). */
  listeners?: Listener[];
}

export interface ListFacts extends StepSpan {
  /** The tools offered, in order, as the agent decoded them. */
  tools: Tool[];
  byName: ReadonlyMap<string, Tool>;
  /** The session's first listing, for `unchanged`. */
  first: ReadonlyMap<string, Tool>;
  /** Where the latest start began: the listing the agent sees must come from that session's server. */
  sessionMark: number;
  /** The answer that ended the listing early, other than a closed channel or silence. */
  failure?: Answer;
  /** The server's answer the ledger shows, in words, which the agent never received before the step's deadline. */
  undelivered?: string;
}

export interface CallFacts extends StepSpan {
  step: CallStep;
  /** The name the agent called: the step's, or what the adapter maps it to (`Candidate.names`). */
  calledAs: string;
  serverTool: string;
  /** The arguments as the agent sent them. */
  args: Record<string, unknown>;
  /** What the agent received; `timeout` only for a step whose `within_ms` the answer missed. */
  answer: Answer;
  /**
   * Every other line the broker sent the agent from the call's start until the next call or
   * request step began, or the session ended: a notice on an HTTP broker's GET stream can come
   * after the answer, and is still this call's to judge.
   */
  others: string[];
  /** Ledger position of the next call step to the same server tool: the bound of what this one caused. */
  next: number | undefined;
  /** The server's answer the ledger shows, in words, which the agent never received before the step's deadline. */
  undelivered?: string;
  /** For an in-flight step: whether the ledger showed the server received the call while the agent had no answer. */
  inFlight?: { reached: boolean; answeredFirst: boolean };
  /** The answer to a tool that exists nowhere, for `answers_like_unknown`. */
  nowhere?: Answer;
  /** Resident growth of the candidate's process group across the call. */
  memory?: { kind: 'measured'; growthMib: number } | { kind: 'died' };
  survivors?: number[];
}

export interface RequestFacts extends StepSpan {
  step: RequestStep;
  /** What the agent received: for a listing, the first answer that was no page, or the last page. */
  answer: Answer;
  /** For a listing: every item of every page, by its key (URI, URI template or prompt name). */
  items?: ReadonlyMap<string, Tool>;
  /** Every other line the broker sent the agent from the step's start on, as for a call. */
  others: string[];
  /** Where the latest start began: a listing's absences need the server listed in that session. */
  sessionMark: number;
  /** The answer to the same method with the params of `answers_like_unknown`. */
  nowhere?: Answer;
  /** The server's answer the ledger shows, in words, which the agent never received before the step's deadline. */
  undelivered?: string;
}

export interface CloseFacts extends StepSpan {
  /** The candidate had exited before the agent closed a session it had served. */
  diedBeforeClose: boolean;
  survivors?: number[];
}

/** One HTTP request an `http` step made, and what came back. */
export interface HttpExchange {
  /** What was asked: `POST initialize`, `GET stream`... */
  what: string;
  /** Null when no response came (the connection was refused or reset). */
  status: number | null;
  contentType: string;
  /** The body as received (bounded), or for a stream only what came with its headers. */
  body: string;
  /** The JSON-RPC messages the body carried (JSON, or each SSE event's data). */
  messages: unknown[];
}

export interface HttpFacts extends StepSpan {
  step: HttpStep;
  /** Every exchange of the step; the step's own request last (an initialize's `initialized` before it). */
  exchanges: HttpExchange[];
  /** For a `together` call: what each client received, its stream's events and its call's answer, by client. */
  together?: Record<string, HttpExchange[]>;
  /** Whether the agent's own session answered a ping after the step (`agent_session`). */
  agentSession?: 'alive' | 'ended';
}

export interface ScenarioFacts {
  label: 'end';
  /** Every call step, in order, for checks that span the scenario. */
  calls: CallFacts[];
  /** Requests the canary listener received: the count, and the first of them as recorded. */
  canary: { requests: number; records: readonly CanaryRequest[] };
  /** What the candidate's adapter reported through its hooks, when the scenario asked. */
  loadReport?: NeutralLoadReport | null;
  audit?: NeutralAuditRecord[];
  auditLines?: string[];
  /** Where each of the operator's secrets first reached the agent, if it did (harness/observe/secrets.ts). */
  secrets?: SecretSighting[];
  /** The value of the front door's credential the adapter provided, when it provided one. */
  frontDoorCredential?: string;
  /** The caching hints of every result the agent received in 2026-07-28 (harness/agent/cache-hints.ts). */
  cacheHints?: readonly ReceivedHints[];
}

export interface FactsOf {
  start: StartFacts;
  list: ListFacts;
  call: CallFacts;
  request: RequestFacts;
  close: CloseFacts;
  kill_candidate: CloseFacts;
  scenario: ScenarioFacts;
  http: HttpFacts;
}

/** What every judge may read besides its step's facts: the final ledger, read once all stopped. */
export interface Judged {
  records: readonly LedgerRecord[];
  kind: Kind;
  spec: SessionSpec;
  /** Says what the judge saw that decides nothing, as a line of the case's notes (requests no check is about). */
  note?(text: string): void;
}

/** What a live observation may use while the scenario runs. */
export interface Live {
  candidate: Candidate;
  spec: SessionSpec;
  records(): LedgerRecord[];
  /** Calls a tool through the agent, as the session's own call would. */
  callTool(name: string): Promise<Answer>;
  /** Sends one request through the agent. */
  request(method: string, params: unknown): Promise<Answer>;
  /** Whether the agent's own HTTP session still answers a ping (undefined: the agent is not on HTTP). */
  agentSessionAlive?(): Promise<boolean>;
  /**
   * Waits, boundedly (harness/run/steps.ts LATE_LINES_MS), until `enough` holds of the step's
   * `others`, for a benign check whose lines may come after the answer; the facts are updated.
   */
  lateLines(enough: (others: readonly string[]) => boolean): Promise<void>;
}

/** Reports an unmet check; `step` names another step than the one judged (an end check about a call). */
export type Fail = (check: string, expectation: string, expected: unknown, observed: unknown, step?: string) => void;

/**
 * One expectation: the properties it adds to its block's `expect` (schema fragments), a doc line,
 * the checks it can report with their classes, and a pure judge over what was observed. `observe`,
 * when given, takes a live observation right after the step (processes alive, a comparison call),
 * stored in the step's facts for the judge. A module with `always` has no property: its checks
 * hold of every step of its block.
 */
export interface Expectation<B extends Block = Block> {
  block: B;
  /** The property that names this expectation in docs and triggers it; `always` ones name their check. */
  name: string;
  doc: string;
  /** The JSON Schema of each property it owns in the block's `expect`. */
  properties: Record<string, unknown>;
  required?: readonly string[];
  always?: true;
  /**
   * Its checks are about a step that ran out of time (harness/run/judge.ts): judged of an
   * unfinished step too, whatever their class, where other modules give only their harm checks.
   */
  judgesUnfinished?: true;
  checks: Record<string, { class: CheckClass; doc: string }>;
  /** The checks a given `expect` can report, where that depends on its value; all of them otherwise. */
  checksFor?(expect: ExpectOf<B>): string[];
  /** The adapter hook whose answer the judge reads; without it the checks cannot be taken. */
  hook?: Hook;
  observe?(expect: ExpectOf<B>, facts: FactsOf[B], live: Live): Promise<void>;
  judge(expect: ExpectOf<B>, facts: FactsOf[B], judged: Judged, fail: Fail): void;
}

/** The adapter hooks a check can depend on (harness/candidates/types.ts). */
export type Hook = 'approve' | 'audit' | 'audit-lines' | 'load-report' | 'start-refusal' | 'config-flaws' | 'url-upstream' | 'command-upstream' | 'http-agent' | 'multi-server' | 'oauth-client';

/** Each block's `expect` object, as the loader validated it. */
interface ExpectOfBlock {
  start: StartExpectation;
  list: ListExpectation;
  call: CallExpectation;
  request: RequestExpectation;
  /** A close may expect nothing. */
  close: Partial<CloseExpectation>;
  kill_candidate: CloseExpectation;
  scenario: ScenarioExpectation;
  http: HttpExpectation;
}
export type ExpectOf<B extends Block> = ExpectOfBlock[B];

/** Declares an expectation module; the registry lists them in judging order. */
export const expectation = <B extends Block>(module: Expectation<B>): Expectation<B> => module;
