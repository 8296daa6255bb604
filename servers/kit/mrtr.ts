/**
 * `ask.<tool>` in 2026-07-28, where a server no longer sends requests of its own: the call is
 * answered with an `input_required` result carrying the preset's requests as `inputRequests`, and
 * the client retries the call with `inputResponses` and the `requestState` it was given
 * (basic/patterns/mrtr). The server keeps nothing between the two: what the retry needs is in the
 * `requestState`, bound to the tool and sealed with an HMAC, so the kit can tell whether the state
 * came back exactly as it issued it, whichever of its processes issued it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type AskPreset, askRequests } from './initiated.js';
import { isRecord } from './jsonrpc.js';
import { type JsonObject, writeJson } from './json-text.js';
import { CANARY } from './payloads.js';

/**
 * How many times in a row a call of a tool is answered `input_required` again, for a retry that
 * brings no `inputResponses` or a `requestState` the kit did not issue, before the retry is refused:
 * mrtr.mdx lets a server "return an `InputRequiredResult` on multiple attempts at the same request",
 * and a client that never answers must still meet an end.
 */
export const MAX_REISSUES = 3;

/** One input request of a preset: the key the kit gives it, its method and its params. */
export interface InputRequest {
  key: string;
  method: string;
  params: JsonObject | null;
}

/** The preset's requests, keyed `input-1`, `input-2`, ... (mrtr.mdx: "Keys are server-assigned string identifiers"). */
export function inputRequestsOf(preset: AskPreset): InputRequest[] {
  return askRequests(preset).map(({ method, params }, index) => ({ key: `input-${index + 1}`, method, params: params as JsonObject | null }));
}

/**
 * The `input_required` result: mrtr.mdx, "Servers **MUST** include at least one of `inputRequests`
 * or `requestState` in every `InputRequiredResult` response"; the kit includes both.
 */
export function inputRequiredText(preset: AskPreset, requestState: string): string {
  return writeJson({ resultType: 'input_required', inputRequests: inputRequestsObject(preset), requestState });
}

/** The preset's requests as an `inputRequests` member's value, by key (also a task's, servers/kit/tasks.ts). */
export function inputRequestsObject(preset: AskPreset): JsonObject {
  const requests: JsonObject = {};
  for (const { key, method, params } of inputRequestsOf(preset)) requests[key] = params === null ? { method } : { method, params };
  return requests;
}

/** What a retry carries; null for a call that carries neither member (a first round). */
export interface Retry {
  /** The responses by key; null when the retry carries none (or not as an object). */
  inputResponses: Record<string, unknown> | null;
  /** The state as it came back, when it is a string; null otherwise. */
  requestState: string | null;
}

export function retryOf(params: unknown): Retry | null {
  if (!isRecord(params) || (!('inputResponses' in params) && !('requestState' in params))) return null;
  const responses = params['inputResponses'];
  const state = params['requestState'];
  return { inputResponses: isRecord(responses) ? responses : null, requestState: typeof state === 'string' ? state : null };
}

/** How a server keeps its `requestState` (knob `request_state`): sealed with an HMAC, or naive base64 JSON it trusts. */
export const REQUEST_STATE_MODES = ['sealed', 'naive'] as const;
export type RequestStateMode = (typeof REQUEST_STATE_MODES)[number];

/** What a server does with the states it issues; `args` are the call's arguments as it read them. */
export interface RequestStateKeeper {
  issue(tool: string, args: unknown): string;
  /** Whether `state` is exactly one this server issued for this call (the ledger's `intact`). */
  intact(tool: string, args: unknown, state: string | null): boolean;
  /** Whether the server takes `state` as a retry of a call of `tool`, whatever it was issued for. */
  trusted(tool: string, state: string | null): boolean;
  /** Whether `state` itself says the call was confirmed, so the server runs it with no responses. */
  confirmed(tool: string, state: string | null): boolean;
  /** The call `state` was taken for has been carried out. */
  spend(state: string | null): void;
}

/**
 * The answer of a call a server carried out on a state it did not issue for that call: the harm a
 * forged, replayed or transplanted state does to a naive server, visible to the agent (the canary)
 * as well as in the ledger (`request_state` with `intact: false`, and no `reply` that accepted).
 */
export function unconfirmedRunText(tool: string): string {
  return writeJson({ resultType: 'complete', content: [{ type: 'text', text: `${tool} carried out as the request state said it was confirmed: ${CANARY}` }], isError: false });
}

/**
 * Whether the responses turn down an elicitation of the preset (any action but `accept`, or none):
 * the naive server then does not carry out the call, so a control sees the user's decline reach it.
 */
export function declined(preset: AskPreset, responses: Record<string, unknown>): boolean {
  return inputRequestsOf(preset).some(({ key, method }) => {
    const response = responses[key];
    return method === 'elicitation/create' && !(isRecord(response) && response['action'] === 'accept');
  });
}

/** The answer of a call the naive server did not carry out because the user declined. */
export function declinedText(tool: string): string {
  return writeJson({ resultType: 'complete', content: [{ type: 'text', text: `${tool} not carried out: the user declined` }], isError: false });
}

/**
 * `request_state=naive`: the state is base64 JSON, `{"tool":..,"arguments":..,"confirmed":false,"call":N}`,
 * and the server believes it: a state naming the tool is taken as a retry of the call, and one that
 * says `confirmed: true` has the call carried out with no input response at all. This is the server
 * mrtr.mdx warns of ("servers MUST treat requestState as an attacker-controlled input"), which
 * many are: whoever holds or writes its state skips the confirmation it asked for.
 */
export class NaiveRequestStates implements RequestStateKeeper {
  private issued = 0;
  /** The states calls were carried out on, in this process: for the ledger's `intact` only, the server itself never looks. */
  private readonly spent = new Set<string>();

  issue(tool: string, args: unknown): string {
    return Buffer.from(JSON.stringify({ tool, arguments: args ?? null, confirmed: false, call: ++this.issued })).toString('base64');
  }

  intact(tool: string, args: unknown, state: string | null): boolean {
    const decoded = this.decode(tool, state);
    return decoded !== null && decoded['confirmed'] === false && JSON.stringify(decoded['arguments']) === JSON.stringify(args ?? null) && !this.spent.has(state!);
  }

  spend(state: string | null): void {
    if (state !== null) this.spent.add(state);
  }

  trusted(tool: string, state: string | null): boolean {
    return this.decode(tool, state) !== null;
  }

  confirmed(tool: string, state: string | null): boolean {
    return this.decode(tool, state)?.['confirmed'] === true;
  }

  /** The state's JSON when it names `tool`; null otherwise. */
  private decode(tool: string, state: string | null): Record<string, unknown> | null {
    try {
      const decoded: unknown = JSON.parse(Buffer.from(state ?? '', 'base64').toString('utf8'));
      return isRecord(decoded) && decoded['tool'] === tool ? decoded : null;
    } catch {
      return null;
    }
  }
}

/**
 * The states a server issues: `<payload>.<mac>`, the payload naming the tool and a count, the MAC
 * keyed by the server's id. mrtr.mdx: "servers **MUST** treat `requestState` as an attacker-controlled
 * input. If `requestState` influences authorization, resource access, or business logic, servers
 * **MUST** protect its integrity (e.g. HMAC or AEAD)".
 */
export class RequestStates implements RequestStateKeeper {
  private issued = 0;

  constructor(private readonly serverId: string) {}

  issue(tool: string, _args?: unknown): string {
    const payload = Buffer.from(JSON.stringify({ tool, n: ++this.issued })).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** Whether `state` is one this server issued for `tool`, unaltered (for any arguments: the sealed state names the tool only). */
  intact(tool: string, _args: unknown, state: string | null): boolean {
    const [payload, mac, ...rest] = (state ?? '').split('.');
    if (payload === undefined || mac === undefined || rest.length > 0) return false;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    try {
      const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return isRecord(decoded) && decoded['tool'] === tool;
    } catch {
      return false;
    }
  }

  trusted(tool: string, state: string | null): boolean {
    return this.intact(tool, null, state);
  }

  confirmed(): boolean {
    return false;
  }

  /** A sealed state names the tool only, and is good again: its server keeps nothing. */
  spend(): void {}

  private mac(payload: string): string {
    return createHmac('sha256', `mcp-gauntlet kit ${this.serverId}`).update(payload).digest('base64url');
  }
}
