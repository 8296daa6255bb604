// The agent's requests about resources, prompts and completion, during the session. Listings are
// answered from what Load decided (a server's later list_changed notice changes nothing the agent
// is offered); every other request goes through the request guards before the server is asked,
// and the server's answer through the answer guards before the agent sees it.

import { ERROR, brokerError } from '../wire/jsonrpc.js';
import { member, object, stringValue } from '../json/tree.js';
import type { Requester } from '../upstream/connection.js';
import { NOT_OFFERED } from '../guards/features.js';
import type { FeatureGuard } from '../guards/types.js';
import type { FeatureRequest, JsonObject, JsonValue, Limits, NonText, Offered } from '../types.js';
import { LISTINGS, type ListingMethod } from './methods.js';
import { RESULT_TYPE, resultTypeOf } from '../wire/revision.js';

/**
 * How a request answers the agent: a result, the broker's JSON-RPC error, or the server's own
 * (`passOn`), which the session reshapes with the error guards as for a call.
 */
export type FeatureAnswer =
  | { readonly ok: true; readonly result: JsonValue }
  | { readonly ok: false; readonly error: JsonObject; readonly passOn?: true };

export interface FeatureSessionOptions {
  readonly offered: Offered;
  readonly guards: readonly FeatureGuard[];
  readonly limits: Limits;
  /** Content the broker cannot inspect as text: withheld (default) or passed on normalised. */
  readonly nonText?: NonText;
  readonly upstream: Requester;
}

/** The string member each forwarded method must name, and what is refused without it. */
const SUBJECT: Readonly<Record<string, string>> = {
  'resources/read': 'uri',
  'resources/subscribe': 'uri',
  'resources/unsubscribe': 'uri',
  'prompts/get': 'name',
};

const isListing = (method: string): method is ListingMethod => Object.hasOwn(LISTINGS, method);

export class FeatureSession {
  private readonly listings: ReadonlyMap<ListingMethod, JsonValue>;

  constructor(private readonly options: FeatureSessionOptions) {
    const { resources, templates, prompts } = options.offered;
    const items: Record<ListingMethod, readonly JsonObject[]> = { 'resources/list': resources, 'resources/templates/list': templates, 'prompts/list': prompts };
    // One page each: the agent is offered at most what Load bounded.
    this.listings = new Map((Object.keys(LISTINGS) as ListingMethod[]).map((method) => [method, object([[LISTINGS[method].field, { kind: 'array', items: [...items[method]] }]])]));
  }

  /** The capabilities the broker declares for what it offers. */
  capabilities(): readonly (readonly [string, JsonValue])[] {
    const { resources, templates, prompts } = this.options.offered;
    return [
      ...(resources.length + templates.length > 0 ? [['resources', object([])] as const] : []),
      ...(prompts.length > 0 ? [['prompts', object([])] as const] : []),
      ...(templates.length + prompts.length > 0 ? [['completions', object([])] as const] : []),
    ];
  }

  async answer(method: string, params: JsonValue | undefined): Promise<FeatureAnswer> {
    if (isListing(method)) return { ok: true, result: this.listings.get(method)! };
    const asked = params?.kind === 'object' ? params : object([]);
    // A retry of a multi round-trip request: the broker issued no state for one here.
    if (member(asked, 'inputResponses') !== undefined || member(asked, 'requestState') !== undefined) {
      return { ok: false, error: brokerError(ERROR.invalidParams, `Invalid params: the broker issued no requestState for ${method}`) };
    }
    const problem = malformed(method, asked);
    if (problem !== undefined) return { ok: false, error: problem };
    let request: FeatureRequest = { method, params: asked };
    for (const guard of this.options.guards) {
      const verdict = guard.request?.(request, this.options.offered);
      if (verdict === undefined) continue;
      if (!verdict.ok) return { ok: false, error: verdict.error };
      request = { method, params: verdict.params };
    }
    let reply;
    try {
      reply = await this.options.upstream.request(method, request.params, this.options.limits.callTimeoutMs, method);
    } catch (err) {
      return { ok: false, error: brokerError(ERROR.upstream, (err as Error).message) };
    }
    if (!reply.ok) return { ok: false, error: reply.error, passOn: true };
    // A 2026-07-28 server may ask for input on resources/read and prompts/get too; the broker
    // relays input requests on calls only (src/session/input-required.ts), so this is refused.
    if (resultTypeOf(reply.result) !== RESULT_TYPE.complete) return { ok: false, error: brokerError(ERROR.upstream, `the server answered ${method} with a result the broker does not relay (input required, or a result type it does not know)`) };
    let result = reply.result;
    for (const guard of this.options.guards) {
      const verdict = guard.answer?.(result, { request, offered: this.options.offered, limits: this.options.limits, nonText: this.options.nonText ?? 'withhold' });
      if (verdict === undefined) continue;
      if (!verdict.ok) return verdict;
      result = verdict.result;
    }
    return { ok: true, result };
  }
}

/** A request that names no subject, or a completion with no reference of a known kind. */
function malformed(method: string, params: JsonObject): JsonObject | undefined {
  const subject = SUBJECT[method];
  if (subject !== undefined) return stringValue(member(params, subject)) === undefined ? brokerError(ERROR.invalidParams, `Invalid params: ${method} needs a string ${subject}`) : undefined;
  if (method !== 'completion/complete') return undefined;
  const ref = member(params, 'ref');
  const type = ref?.kind === 'object' ? stringValue(member(ref, 'type')) : undefined;
  return type === 'ref/prompt' || type === 'ref/resource' ? undefined : NOT_OFFERED.reference();
}
