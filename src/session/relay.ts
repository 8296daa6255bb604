// The broker's side of what a server starts on its own, in one session. A server's request to
// the agent (sampling, elicitation, roots) is judged by the server-request guards, sent to the
// agent under an id of the broker's own (the agent's and the server's id spaces are separate, and
// neither may answer for the other), and the agent's answer goes back to the server under the
// server's id, as the reply guards leave it; a request the agent declared no capability for is
// never sent. A server's notification is judged by the notification guards and forwarded or
// dropped. Progress is mapped: a call the agent asks progress for is forwarded with a token the
// broker issued, and progress for that token reaches the agent under the agent's own token. The
// token is random, not counted: the sessions of a front door share one server, and each hears
// all its progress, so a token two sessions both issued would hand one the other's progress.

import { randomBytes } from 'node:crypto';
import { ERROR, brokerError, notificationLine, requestLine } from '../wire/jsonrpc.js';
import { member, object, plain } from '../json/tree.js';
import type { ServerEnv } from '../guards/types.js';
import type { Reply } from '../upstream/connection.js';
import type { ClientFacts, InitiatedContext, NotificationGuard, ServerReplyGuard, ServerRequestGuard } from '../guards/types.js';
import type { JsonObject, JsonValue, ServerRequests } from '../types.js';
import { withMembers } from '../json/members.js';
import { NO_CAPABILITIES, readCapabilities } from '../operator/client-capabilities.js';

export interface InitiatedGuards {
  readonly serverRequest: readonly ServerRequestGuard[];
  readonly serverReply: readonly ServerReplyGuard[];
  readonly notification: readonly NotificationGuard[];
}

/** Each request a server may start, and whether the agent declared the capability it needs. */
const CAPABILITY: Readonly<Record<string, (client: ClientFacts) => boolean>> = {
  'sampling/createMessage': (client) => client.sampling,
  'elicitation/create': (client) => client.elicitationForm || client.elicitationUrl,
  'roots/list': (client) => client.roots,
};

/** The notifications a server may send the agent through the broker; others are not passed on. */
const FORWARDED = new Set(['notifications/message', 'notifications/progress', 'notifications/resources/list_changed', 'notifications/prompts/list_changed']);

/** Bytes of randomness in a progress token the broker issues: no session's collides with another's. */
const PROGRESS_TOKEN_BYTES = 16;

/** A server's request as `judge` leaves it: allowed, as the guards reshaped it, or refused with the server's answer. */
export type Judged = { readonly ok: true; readonly params: JsonObject; readonly context: InitiatedContext } | { readonly ok: false; readonly reply: Reply };

export interface RelayOptions {
  readonly guards: InitiatedGuards;
  readonly policy: ServerRequests;
  readonly serverEnv: ServerEnv;
  readonly send: (line: string) => void;
  /** How long the agent has to answer a request. */
  readonly timeoutMs: number;
  /** Whether the agent asked for this notification; absent, every one the guards allow is forwarded. */
  readonly wants?: (method: string, params: JsonObject | undefined) => boolean;
  /** Sends the agent a notification as the guards left it; absent, as one line. */
  readonly deliver?: (method: string, params: JsonObject | undefined) => void;
}

export class Relay {
  private client: ClientFacts = NO_CAPABILITIES;
  private nextId = 1;
  /** The broker's requests to the agent still waiting, by the id's literal. */
  private readonly waiting = new Map<string, (reply: Reply) => void>();
  private readonly counts = new Map<string, number>();
  /** The tokens issued for calls in flight: the broker's token, and the agent's it stands for. */
  private readonly progress = new Map<string, JsonValue>();

  constructor(private readonly options: RelayOptions) {}

  /** What the agent declared in its initialize request. */
  learnClient(params: JsonValue | undefined): void {
    this.client = readCapabilities(params?.kind === 'object' ? member(params, 'capabilities') : undefined);
  }

  /** The answer the server gets to its request of `method`. */
  async request(method: string, params: JsonValue | undefined): Promise<Reply> {
    const judged = this.judge(method, params, this.client);
    if (!judged.ok) return judged.reply;
    const reply = await this.ask(method, params === undefined && judged.params.entries.length === 0 ? undefined : judged.params);
    if (!reply.ok) return reply;
    return { ok: true, result: this.reshape(method, reply.result, judged.context) };
  }

  /**
   * Whether a request the server makes of the agent may reach it, and as what: what the agent
   * declared (`client`: its initialize's, or a 2026-07-28 request's own) and the server-request
   * guards decide, in order, the first refusal deciding. A 2026-07-28 server's input requests
   * (src/session/input-required.ts) are judged here too, as the requests they replace.
   */
  judge(method: string, params: JsonValue | undefined, client: ClientFacts): Judged {
    const needs = CAPABILITY[method];
    if (needs === undefined) return { ok: false, reply: refused(ERROR.methodNotFound, `Method not found: ${method}`) };
    if (params !== undefined && params.kind !== 'object') return { ok: false, reply: refused(ERROR.invalidParams, 'Invalid params: params must be an object') };
    const context = this.context(method, client);
    if (!needs(client)) return { ok: false, reply: refused(ERROR.methodNotFound, `the agent offers no capability for ${method}`) };
    let judged: JsonObject = params ?? object([]);
    for (const guard of this.options.guards.serverRequest) {
      if (!guard.methods.includes(method)) continue;
      const verdict = guard.check({ method, params: judged }, context);
      if (verdict.kind === 'refuse') return { ok: false, reply: refused(ERROR.invalidRequest, `refused by the broker (${guard.name}): ${verdict.reason}`) };
      judged = verdict.params;
    }
    return { ok: true, params: judged, context };
  }

  /** The agent's answer to a request `judge` allowed, as the reply guards leave it for the server. */
  reshape(method: string, result: JsonValue, context: InitiatedContext): JsonValue {
    return this.options.guards.serverReply.filter((guard) => guard.methods.includes(method)).reduce((shaped, guard) => guard.reshape(shaped, context), result);
  }

  /** Settles the broker's request a line from the agent answers; false when it answers none. */
  answered(id: JsonValue, reply: Reply): boolean {
    const key = id.kind === 'number' ? id.text : undefined;
    const settle = key === undefined ? undefined : this.waiting.get(key);
    if (key === undefined || settle === undefined) return false;
    this.waiting.delete(key);
    settle(reply);
    return true;
  }

  /** A notification from the server: forwarded to the agent as the guards leave it, or dropped. */
  notification(method: string, params: JsonValue | undefined): void {
    if (!FORWARDED.has(method) || (params !== undefined && params.kind !== 'object')) return;
    if (this.options.wants?.(method, params) === false) return;
    const token = method === 'notifications/progress' && params !== undefined ? this.agentToken(member(params, 'progressToken')) : undefined;
    const context = { ...this.context(method), ownProgress: token !== undefined };
    let judged: JsonObject = params ?? object([]);
    for (const guard of this.options.guards.notification) {
      if (!guard.methods.includes(method)) continue;
      const verdict = guard.check({ method, params: judged }, context);
      if (verdict.kind === 'drop') return;
      judged = verdict.params;
    }
    if (token !== undefined) judged = withMembers(judged, { progressToken: token });
    const delivered = params === undefined && judged.entries.length === 0 ? undefined : judged;
    if (this.options.deliver !== undefined) this.options.deliver(method, delivered);
    else this.options.send(notificationLine(method, delivered));
  }

  /** A token of the broker's own for a call the agent asked progress for; retire it when the call ends. */
  issueProgress(agentToken: JsonValue): { token: JsonValue; retire: () => void } {
    const key = `progress-${randomBytes(PROGRESS_TOKEN_BYTES).toString('base64url')}`;
    this.progress.set(key, agentToken);
    return { token: plain(key), retire: () => this.progress.delete(key) };
  }

  private agentToken(token: JsonValue | undefined): JsonValue | undefined {
    return token?.kind === 'string' ? this.progress.get(token.value) : undefined;
  }

  private context(method: string, client: ClientFacts = this.client): InitiatedContext {
    const count = (this.counts.get(method) ?? 0) + 1;
    this.counts.set(method, count);
    return { policy: this.options.policy, client, serverEnv: this.options.serverEnv, count };
  }

  /** Sends the agent the request under an id of the broker's own and waits, bounded, for its answer. */
  private ask(method: string, params: JsonValue | undefined): Promise<Reply> {
    const id = this.nextId++;
    const key = String(id);
    return new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        resolve(refused(ERROR.upstream, `the agent did not answer ${method} within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      this.waiting.set(key, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.options.send(requestLine(plain(id), method, params));
    });
  }
}

function refused(code: number, message: string): Reply {
  return { ok: false, error: brokerError(code, message) };
}
