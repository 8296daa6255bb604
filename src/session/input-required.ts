// Multi round-trip requests (MCP 2026-07-28, basic/patterns/mrtr.mdx) as the broker sees them. A
// 2026-07-28 server that needs the agent's input answers a call with an `input_required` result:
// `inputRequests` (each an elicitation, a sampling or a roots request, the requests it can no
// longer send on its own) and an opaque `requestState`, which the client echoes when it retries
// the call with its `inputResponses`. The broker judges each input request as the request it
// replaces (src/session/relay.ts), and shows a 2026-07-28 agent only what it allowed, with a
// `requestState` of its own: a random handle, kept by the agent's session and bound to the call
// it was issued for. The server's own state never reaches the agent, and the broker restores it
// only on a retry of that same call that carries that handle, once; any other retry is refused
// before the server sees it. That binding is the guard request-state-bound (src/guards/input-state.ts):
// without it the session relays states instead (RelayedStates), passing the server's bytes to the
// agent and forwarding whatever state the agent's retry carries, as a broker without it does.

import { randomBytes } from 'node:crypto';
import { member, stringValue } from '../json/tree.js';
import type { InitiatedContext } from '../guards/types.js';
import type { JsonObject, JsonValue } from '../types.js';
import type { PerRequest } from './answer.js';

/**
 * The most input requests of one `input_required` result the broker reads; those past it are
 * refused unread (never shown, no response to the server), as the server's own requests past a
 * session's bound are refused one by one in 2025-11-25, so a flood costs the call nothing else.
 */
export const MAX_INPUT_REQUESTS = 16;
/** The most `input_required` rounds of one call, its retries included. */
export const MAX_ROUNDS = 8;
/** How long a handle the broker issued may be redeemed. */
export const HANDLE_LIFETIME_MS = 10 * 60_000;
/** The most handles a session keeps at once; issuing one more forgets the oldest. */
export const MAX_LIVE_HANDLES = 64;
/** Bytes of randomness in a handle: one no agent can guess. */
const HANDLE_BYTES = 32;

/** One input request of a server's, keyed as the server keyed it. */
export interface InputRequest {
  readonly key: string;
  readonly method: string;
  readonly params: JsonValue | undefined;
}

/** An `input_required` result, read. */
export interface InputRequired {
  readonly requests: readonly InputRequest[];
  /** The server's opaque state, to be given back to it on the retry; undefined when it gave none. */
  readonly requestState: string | undefined;
  /** How many input requests past MAX_INPUT_REQUESTS were left unread, and so refused. */
  readonly unread: number;
}

/** An `input_required` result read, or what is wrong with it. */
export function readInputRequired(result: JsonValue): InputRequired | string {
  if (result.kind !== 'object') return 'it is not an object';
  const inputRequests = member(result, 'inputRequests');
  const state = member(result, 'requestState');
  if (inputRequests === undefined && state === undefined) return 'it carries neither inputRequests nor requestState';
  if (state !== undefined && state.kind !== 'string') return 'its requestState is not a string';
  if (inputRequests !== undefined && inputRequests.kind !== 'object') return 'its inputRequests is not an object';
  const entries = inputRequests?.kind === 'object' ? inputRequests.entries : [];
  const requests: InputRequest[] = [];
  for (const [key, request] of entries.slice(0, MAX_INPUT_REQUESTS)) {
    const method = request.kind === 'object' ? stringValue(member(request, 'method')) : undefined;
    if (request.kind !== 'object' || method === undefined) return `its input request ${JSON.stringify(key)} names no method`;
    requests.push({ key, method, params: member(request, 'params') });
  }
  return { requests, requestState: stringValue(state), unread: Math.max(0, entries.length - MAX_INPUT_REQUESTS) };
}

/** An input request the broker allowed and showed the agent, with what the reply guards need. */
export interface Shown {
  readonly method: string;
  readonly context: InitiatedContext;
}

/** What a handle stands for: the call it was issued for, and what the server's retry needs. */
interface Issued {
  readonly subject: string;
  readonly serverState: string | undefined;
  readonly shown: ReadonlyMap<string, Shown>;
  readonly round: number;
  readonly expires: number;
}

/** A request of the agent's as the states judge it. */
export type Redeemed =
  /** No retry: the request carries neither inputResponses nor requestState. */
  | { readonly kind: 'fresh' }
  | { readonly kind: 'refused'; readonly problem: string }
  | {
      readonly kind: 'retry';
      readonly serverState: string | undefined;
      readonly shown: ReadonlyMap<string, Shown>;
      /** The agent's inputResponses (an empty object when it sent none). */
      readonly responses: JsonObject | undefined;
      readonly round: number;
    };

/** How a session keeps the `requestState` of its multi round-trip calls. */
export interface InputStates {
  /** The `requestState` the agent is shown for an `input_required` answer to the call `subject` names, in round `round`. */
  issue(subject: string, serverState: string | undefined, shown: ReadonlyMap<string, Shown>, round: number): string;
  /** Whether a request of the agent's retries a call the broker answered `input_required`, and with what. */
  redeem(params: JsonValue | undefined, perRequest: PerRequest | undefined, subject: string): Redeemed;
}

/** What a request carries of a retry: nothing (fresh), something unusable (refused), or a state and the responses. */
type Retrying = Redeemed | { readonly kind: 'state'; readonly state: string; readonly responses: JsonObject | undefined };

/** A request's retry members, read as every way of keeping states reads them. */
function retrying(params: JsonValue | undefined, perRequest: PerRequest | undefined): Retrying {
  const responses = params?.kind === 'object' ? member(params, 'inputResponses') : undefined;
  const state = params?.kind === 'object' ? member(params, 'requestState') : undefined;
  // The handshake's revisions have no retry: those members are not forwarded, as before them.
  if (perRequest === undefined || (responses === undefined && state === undefined)) return { kind: 'fresh' };
  if (responses !== undefined && responses.kind !== 'object') return { kind: 'refused', problem: 'inputResponses is not an object' };
  if (state?.kind !== 'string') return { kind: 'refused', problem: 'a retry needs the requestState the broker gave for the call' };
  return { kind: 'state', state: state.value, responses: responses?.kind === 'object' ? responses : undefined };
}

/** The guard request-state-bound's mechanics: a random handle per answer, bound to the call, single-use. */
export class InputHandles implements InputStates {
  /** By handle, oldest first. */
  private readonly issued = new Map<string, Issued>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(subject: string, serverState: string | undefined, shown: ReadonlyMap<string, Shown>, round: number): string {
    this.forgetExpired();
    while (this.issued.size >= MAX_LIVE_HANDLES) this.issued.delete(this.issued.keys().next().value!);
    const handle = randomBytes(HANDLE_BYTES).toString('base64url');
    this.issued.set(handle, { subject, serverState, shown, round, expires: this.now() + HANDLE_LIFETIME_MS });
    return handle;
  }

  /**
   * Only a 2026-07-28 request can retry, and only with a handle this session issued for the same
   * `subject` and not yet used or expired. A handle is spent by its redemption, whatever follows.
   */
  redeem(params: JsonValue | undefined, perRequest: PerRequest | undefined, subject: string): Redeemed {
    const retry = retrying(params, perRequest);
    if (retry.kind !== 'state') return retry;
    this.forgetExpired();
    const issued = this.issued.get(retry.state);
    if (issued === undefined) return { kind: 'refused', problem: 'requestState is not one the broker issued, or it was used or expired' };
    if (issued.subject !== subject) return { kind: 'refused', problem: 'requestState was issued for another request' };
    this.issued.delete(retry.state);
    return { kind: 'retry', serverState: issued.serverState, shown: issued.shown, responses: retry.responses, round: issued.round };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [handle, { expires }] of this.issued) if (expires <= now) this.issued.delete(handle);
  }
}

/**
 * Without request-state-bound: the agent is shown the server's own state (a handle only where the
 * server gave none), and any retry goes to the server with the state it carries, whatever call it
 * was issued for, however often. What was shown under a state is remembered (MAX_LIVE_HANDLES at
 * most) so that the agent's responses are still judged as replies; a state the broker never saw
 * goes on with no responses.
 */
export class RelayedStates implements InputStates {
  private readonly issued = new Map<string, Issued>();

  issue(subject: string, serverState: string | undefined, shown: ReadonlyMap<string, Shown>, round: number): string {
    const state = serverState ?? randomBytes(HANDLE_BYTES).toString('base64url');
    this.issued.delete(state);
    while (this.issued.size >= MAX_LIVE_HANDLES) this.issued.delete(this.issued.keys().next().value!);
    this.issued.set(state, { subject, serverState, shown, round, expires: Infinity });
    return state;
  }

  redeem(params: JsonValue | undefined, perRequest: PerRequest | undefined): Redeemed {
    const retry = retrying(params, perRequest);
    if (retry.kind !== 'state') return retry;
    const issued = this.issued.get(retry.state);
    const serverState = issued === undefined ? retry.state : issued.serverState;
    return { kind: 'retry', serverState, shown: issued?.shown ?? new Map(), responses: retry.responses, round: issued?.round ?? 0 };
  }
}
