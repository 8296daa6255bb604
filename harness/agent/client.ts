import { parse as parseLossless, isLosslessNumber, stringify as stringifyLossless } from 'lossless-json';
import type { AgentChannel } from '../candidates/types.js';
import type { ClientSide } from '../scenario/types.js';
import { hintsOf, type ReceivedHints } from './cache-hints.js';
import { type CraftedRetry, inputResponsesTo, isInputRequired, retryMembers, type RetryMembers, retryParams } from './input-required.js';
import { endedAs, isTaskCreated, MAX_TASK_POLLS, taskAsksInput, taskEnded, taskIdOf, TASKS_EXTENSION } from './tasks.js';
import { LISTEN, LISTEN_PARAMS, acknowledges, listenOutcome, type ListenOutcome } from './listen.js';
import { BASE_REVISION, REQUEST_META, STATELESS_REVISION, type Revision } from './revisions.js';

/**
 * What the agent observed in answer to one request. A closed channel and a timeout are their own
 * kinds: no expectation can be met by a broker that died or hung.
 */
export type Answer =
  | { kind: 'result'; result: Record<string, unknown>; raw: string }
  | { kind: 'error'; error: { code: number; message: string }; raw: string }
  | { kind: 'malformed'; raw: string; why: string }
  | { kind: 'closed' }
  /** `raw`: what had arrived of an answer still coming when the time ran out (`arriving`). */
  | { kind: 'timeout'; raw?: string };

/** The revision initialize asks for. */
export const PROTOCOL_VERSION = BASE_REVISION;

/** Bound on how many pages the agent follows: far past any sane broker's own bound. */
export const AGENT_MAX_PAGES = 200;

/** Bound on the unsolicited lines kept: a flood is evidence enough long before this. */
const MAX_UNSOLICITED = 10_000;

/**
 * Bound on the retries of one request answered `input_required` (2026-07-28): a server may ask
 * again until it has what it needs (mrtr.mdx), and the kit asks once, so a broker still asking
 * after this many is looping, not gathering input.
 */
export const MAX_INPUT_ROUNDS = 8;

/** What the agent says it is, on initialize and on every 2026-07-28 request. */
const CLIENT_INFO = { name: 'mcp-gauntlet-agent', version: '0.1.0' };

interface Pending {
  resolve(answer: Answer): void;
}

/**
 * The harness's agent. It decodes with lossless-json, which refuses duplicate keys that differ
 * and keeps big numbers as text, so what it reports is what the broker actually sent. It is a
 * different parser from the reference broker's on purpose: a parser bug cannot hide itself.
 */
export class AgentClient {
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  /** The round-trip members of the last retry the agent sent (2026-07-28): what a `replay` sends again. */
  private lastRetry: RetryMembers | undefined;
  /** Whether the session's subscriptions/listen was sent (`listen`). */
  private listened = false;
  /**
   * Every line the broker sent that answered no pending request (notifications, requests of its
   * own, stray answers), in arrival order: other channels a withheld value could reach the agent by.
   */
  readonly unsolicited: string[] = [];
  /**
   * The caching hints of every result of a 2026-07-28 request, interim ones included, in arrival
   * order (bounded as `unsolicited` is): what the agent was told it may keep, and for whom.
   */
  readonly hints: ReceivedHints[] = [];
  /** Woken at each unsolicited line and when the channel closes (`untilUnsolicited`). */
  private readonly watchers = new Set<() => void>();

  /**
   * `side` is what the agent declares and how it answers the broker's requests; none offers
   * nothing. `revision` is the MCP revision the agent speaks to the broker.
   */
  constructor(
    private readonly channel: AgentChannel,
    private readonly timeoutMs: number,
    private readonly side: ClientSide = {},
    readonly revision: Revision = BASE_REVISION,
  ) {
    channel.onLine((line) => this.receive(line));
    void channel.exited.then(() => {
      this.closed = true;
      for (const waiter of this.pending.values()) waiter.resolve({ kind: 'closed' });
      this.pending.clear();
      for (const wake of this.watchers) wake();
    });
  }

  private receive(line: string): void {
    if (!this.answers(line)) this.keep(line);
  }

  /** Keeps a line the agent received besides a final answer, where the judges read it. */
  private keep(line: string): void {
    if (this.unsolicited.length >= MAX_UNSOLICITED) return;
    this.unsolicited.push(line);
    for (const wake of this.watchers) wake();
  }

  /**
   * Settles once `enough` holds of the unsolicited lines from index `from` on, or after `ms`, or
   * when the channel closes: for an absence that only time can decide, woken by each arrival.
   */
  untilUnsolicited(from: number, enough: (lines: readonly string[]) => boolean, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      const check = () => {
        if (this.closed || enough(this.unsolicited.slice(from))) done();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.watchers.add(check);
      check();
    });
  }

  /** Settles the request a line answers; false when it answers none. */
  private answers(line: string): boolean {
    let message: Record<string, unknown>;
    try {
      message = parseLossless(line) as Record<string, unknown>;
    } catch (error) {
      // A line we cannot decode is charged to the oldest request still waiting.
      const [first] = this.pending.entries();
      if (first) {
        this.pending.delete(first[0]);
        first[1].resolve({ kind: 'malformed', raw: line, why: (error as Error).message });
        return true;
      }
      return false;
    }
    if (typeof message.method === 'string') {
      this.answerServerRequest(message);
      return false;
    }
    const id = idKey(message.id);
    const waiter = this.pending.get(id);
    if (!waiter) return false;
    this.pending.delete(id);
    if (message.error && typeof message.error === 'object') {
      const error = message.error as { code?: unknown; message?: unknown };
      waiter.resolve({
        kind: 'error',
        error: { code: Number(isLosslessNumber(error.code) ? error.code.valueOf() : error.code), message: String(error.message ?? '') },
        raw: line,
      });
    } else if (message.result && typeof message.result === 'object') {
      waiter.resolve({ kind: 'result', result: message.result as Record<string, unknown>, raw: line });
    } else {
      waiter.resolve({ kind: 'malformed', raw: line, why: 'neither result nor error' });
    }
    return true;
  }

  /**
   * Answers ping, and each request of a capability the scenario's agent declares with the answer
   * the scenario gives it; declines everything else. The request itself stays in `unsolicited`.
   */
  private answerServerRequest(message: Record<string, unknown>): void {
    if (message.id === undefined) return;
    const result = clientAnswer(this.side, String(message.method));
    const reply =
      result === undefined
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'the agent offers no such capability' } }
        : { jsonrpc: '2.0', id: message.id, result };
    this.channel.send(stringifyLossless(reply) ?? '');
  }

  /** What has arrived of messages the broker has begun and not finished; '' when none, or unknown. */
  arriving(): string {
    return this.channel.arriving?.() ?? '';
  }

  /**
   * `timeoutMs` overrides the client's bound for one request. In 2026-07-28 the request carries
   * the revision's `_meta`, and an `input_required` answer is answered and the request retried
   * (bounded by MAX_INPUT_ROUNDS, all within `timeoutMs`): the answer is the last one.
   */
  async request(method: string, params: unknown, timeoutMs = this.timeoutMs, crafted?: CraftedRetry, cancelTask = false): Promise<Answer> {
    if (this.revision !== STATELESS_REVISION) return this.exchange(method, params, timeoutMs);
    const deadline = Date.now() + timeoutMs;
    let sent = this.withRequestMeta(params);
    if (crafted !== undefined && typeof sent === 'object' && sent !== null) sent = { ...sent, ...this.craftedFirst(crafted) };
    for (let round = 0; ; round++) {
      const answer = await this.exchange(method, sent, Math.max(0, deadline - Date.now()));
      if (answer.kind === 'result' && this.hints.length < MAX_UNSOLICITED) this.hints.push(hintsOf(method, sent, answer.result));
      if (answer.kind === 'result' && this.side.tasks === true && isTaskCreated(answer.result)) return this.followTask(answer, deadline, cancelTask);
      if (answer.kind !== 'result' || !isInputRequired(answer.result) || typeof sent !== 'object' || sent === null) return answer;
      // The interim answer reached the agent: a value withheld from the agent is just as out
      // inside a request for input, and its requests are counted as the broker's own requests.
      this.keep(answer.raw);
      if (round === MAX_INPUT_ROUNDS) return { kind: 'malformed', raw: answer.raw, why: `still input_required after ${MAX_INPUT_ROUNDS} retries` };
      const retry = retryParams(sent as Record<string, unknown>, answer.result, (asked) => clientAnswer(this.side, asked));
      sent = crafted !== undefined && 'arguments' in crafted ? { ...retry, arguments: crafted.arguments } : retry;
      this.lastRetry = retryMembers(retry);
    }
  }

  /**
   * A call answered with a task (the tasks extension): polled with `tasks/get` until it ends, at
   * most MAX_TASK_POLLS times, a task asking for input answered with `tasks/update` as a request
   * for input is; the answer is what the ended task answers the call with. Every interim answer
   * reached the agent, so each is kept where the judges read what the agent received. With
   * `cancel`, the agent first cancels the task, and an answer other than an acknowledgement ends it.
   */
  private async followTask(created: Extract<Answer, { kind: 'result' }>, deadline: number, cancel: boolean): Promise<Answer> {
    this.keep(created.raw);
    const taskId = taskIdOf(created.result);
    if (taskId === undefined) return { kind: 'malformed', raw: created.raw, why: 'a task without a string taskId' };
    const left = () => Math.max(0, deadline - Date.now());
    if (cancel) {
      const cancelled = await this.exchange('tasks/cancel', this.withRequestMeta({ taskId }), left());
      if (cancelled.kind !== 'result') return cancelled;
      this.keep(cancelled.raw);
    }
    for (let poll = 0; poll < MAX_TASK_POLLS; poll++) {
      const answer = await this.exchange('tasks/get', this.withRequestMeta({ taskId }), left());
      if (answer.kind !== 'result') return answer;
      if (taskEnded(answer.result)) {
        const ended = endedAs(answer.result);
        if ('problem' in ended) return { kind: 'malformed', raw: answer.raw, why: ended.problem };
        return 'error' in ended ? { kind: 'error', error: ended.error, raw: answer.raw } : { kind: 'result', result: ended.result, raw: answer.raw };
      }
      this.keep(answer.raw);
      if (!taskAsksInput(answer.result)) continue;
      const inputResponses = inputResponsesTo(answer.result, (asked) => clientAnswer(this.side, asked));
      const updated = await this.exchange('tasks/update', this.withRequestMeta({ taskId, inputResponses }), left());
      if (updated.kind !== 'result') return updated;
    }
    return { kind: 'malformed', raw: created.raw, why: `task ${taskId} still not ended after ${MAX_TASK_POLLS} polls` };
  }

  /** What a crafted retry adds to the call's first send: a forged state, or the last retry's members again. */
  private craftedFirst(crafted: CraftedRetry): RetryMembers {
    if ('request_state' in crafted) return { requestState: crafted.request_state };
    if (!('replay' in crafted)) return {};
    if (this.lastRetry === undefined) throw new Error('retry.replay: the agent has retried no call in this session, so there is no state to replay');
    return this.lastRetry;
  }

  /**
   * The params of a 2026-07-28 request: its `_meta` says the revision, the agent's capabilities
   * and who it is, and asks for log lines at `debug`, the lowest level. Without a level a server
   * MUST NOT send notifications/message for the request (logging.mdx), where a 2025-11-25 server
   * sends what it logs until the client sets a level, which this agent never does: so the same
   * log lines reach the agent in both revisions. The scenario's own `_meta` keys win.
   */
  private withRequestMeta(params: unknown): unknown {
    const given = params ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) return params;
    const { _meta: meta, ...rest } = given as Record<string, unknown>;
    const own = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
    return {
      ...rest,
      _meta: {
        [REQUEST_META.protocolVersion]: this.revision,
        [REQUEST_META.clientCapabilities]: clientCapabilities(this.side),
        [REQUEST_META.clientInfo]: CLIENT_INFO,
        [REQUEST_META.logLevel]: 'debug',
        ...own,
      },
    };
  }

  /** One request and its answer, as sent. */
  private exchange(method: string, params: unknown, timeoutMs: number): Promise<Answer> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(String(id));
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      timer.unref();
      this.pending.set(String(id), {
        resolve(answer) {
          clearTimeout(timer);
          resolve(answer);
        },
      });
      // Lossless, so an exact number a scenario wrote (`!exact`) is sent digit for digit.
      this.channel.send(stringifyLossless({ jsonrpc: '2.0', id, method, params }) ?? '');
    });
  }

  notify(method: string, params?: unknown): void {
    this.channel.send(stringifyLossless({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }) ?? '');
  }

  async initialize(timeoutMs = this.timeoutMs): Promise<Answer> {
    const answer = await this.request('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: clientCapabilities(this.side), clientInfo: CLIENT_INFO }, timeoutMs);
    if (answer.kind === 'result') this.notify('notifications/initialized');
    return answer;
  }

  /**
   * What opens a session in the agent's revision: initialize in 2025-11-25; in 2026-07-28, which
   * has no handshake, server/discover, whose answer (capabilities, serverInfo, instructions) is
   * judged as initialize's is.
   */
  handshake(timeoutMs = this.timeoutMs): Promise<Answer> {
    return this.handshakeMethod === 'server/discover' ? this.request('server/discover', {}, timeoutMs) : this.initialize(timeoutMs);
  }

  /**
   * Opens the session's one `subscriptions/listen` stream (2026-07-28, harness/agent/listen.ts) and
   * settles once the broker acknowledged it, answered it, or `timeoutMs` passed. The request stays
   * open: the stream lasts until the channel closes.
   */
  async listen(timeoutMs = this.timeoutMs): Promise<ListenOutcome> {
    if (this.listened) throw new Error('the agent opens one subscriptions/listen a session');
    this.listened = true;
    // exchange() takes the next id: the acknowledgment names the stream by it.
    const id = this.nextId;
    const from = this.unsolicited.length;
    const isAcknowledged = (lines: readonly string[]) => lines.some((line) => acknowledges(line, id));
    const answered = this.exchange(LISTEN, this.withRequestMeta(LISTEN_PARAMS), timeoutMs);
    const first = await Promise.race([answered, this.untilUnsolicited(from, isAcknowledged, timeoutMs).then(() => undefined)]);
    return listenOutcome(first, isAcknowledged(this.unsolicited.slice(from)));
  }

  /** The method `handshake` sends. */
  get handshakeMethod(): 'initialize' | 'server/discover' {
    return this.revision === STATELESS_REVISION ? 'server/discover' : 'initialize';
  }

  /** Follows cursors up to AGENT_MAX_PAGES. Returns every tool object seen, in order. */
  async listTools(): Promise<{ tools: Array<Record<string, unknown>>; pages: number; failure?: Answer }> {
    const tools: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    for (let pages = 1; pages <= AGENT_MAX_PAGES; pages++) {
      const answer = await this.request('tools/list', cursor === undefined ? {} : { cursor });
      if (answer.kind !== 'result') return { tools, pages, failure: answer };
      const page = answer.result.tools;
      if (!Array.isArray(page)) return { tools, pages, failure: { kind: 'malformed', raw: answer.raw, why: 'tools is not an array' } };
      tools.push(...(page as Array<Record<string, unknown>>));
      const next = answer.result.nextCursor;
      if (typeof next !== 'string') return { tools, pages };
      cursor = next;
    }
    return { tools, pages: AGENT_MAX_PAGES };
  }

  callTool(name: string, args: Record<string, unknown>, options: { meta?: Record<string, unknown>; timeoutMs?: number; retry?: CraftedRetry; cancelTask?: boolean } = {}): Promise<Answer> {
    const params = { name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) };
    return this.request('tools/call', params, options.timeoutMs, options.retry, options.cancelTask);
  }
}

/**
 * The capabilities an agent with this side declares: MCP 2025-11-25's `ClientCapabilities`, which
 * 2026-07-28 keeps in these shapes (roots `{}`, its listChanged gone with its notification).
 */
export function clientCapabilities({ sampling, elicitation, roots, tasks }: ClientSide): Record<string, unknown> {
  return {
    ...(tasks === true ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    ...(sampling === undefined ? {} : { sampling: sampling.tools === true ? { tools: {} } : {} }),
    ...(elicitation === undefined
      ? {}
      : { elicitation: { ...(elicitation.form !== false ? { form: {} } : {}), ...(elicitation.url === true ? { url: {} } : {}) } }),
    ...(roots === undefined ? {} : { roots: {} }),
  };
}

/** The agent's answer to a request of `method` (a server's own, or a request for input); undefined for one it declines. */
function clientAnswer({ sampling, elicitation, roots }: ClientSide, method: string): Record<string, unknown> | undefined {
  switch (method) {
    case 'ping':
      return {};
    case 'sampling/createMessage':
      return sampling === undefined
        ? undefined
        : { role: 'assistant', content: { type: 'text', text: sampling.reply ?? 'A short summary.' }, model: 'gauntlet-agent', stopReason: 'endTurn' };
    case 'elicitation/create':
      return elicitation === undefined ? undefined : (elicitation.answer ?? { action: 'decline' });
    case 'roots/list':
      return roots === undefined ? undefined : { roots };
    default:
      return undefined;
  }
}

function idKey(id: unknown): string {
  return isLosslessNumber(id) ? id.toString() : String(id);
}
