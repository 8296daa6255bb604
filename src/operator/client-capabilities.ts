// The client capabilities of MCP 2025-11-25 (`roots`, `sampling` with `tools`, `elicitation` with
// `form` and `url`): read from an agent's initialize, and declared by the broker in its own
// initialize to a server. A server may offer tools only to a client that declares a feature (the
// official server-everything does), so the broker declares what the operator lets the server ask
// of the agent (`server_requests`), and never more: a feature declared that the operator forbids
// would be a promise the broker then refuses to keep on every request.

import { member, object } from '../json/tree.js';

import type { ClientFacts, Config, JsonObject, JsonValue, ServerRequests } from '../types.js';

export const NO_CAPABILITIES: ClientFacts = { sampling: false, samplingTools: false, elicitationForm: false, elicitationUrl: false, roots: false };

/**
 * What the operator permits the server to ask of the agent: sampling (with tools only under
 * `allow_tools`) and elicitation in both modes the broker relays when allowed, roots when at least
 * one root may be told. `roots.listChanged` is never declared: the broker does not pass the
 * agent's notifications on.
 */
export function permittedCapabilities(policy: ServerRequests): ClientFacts {
  return {
    sampling: policy.sampling.allow,
    samplingTools: policy.sampling.allow && policy.sampling.allowTools,
    elicitationForm: policy.elicitation.allow,
    elicitationUrl: policy.elicitation.allow,
    roots: policy.roots.length > 0,
  };
}

/**
 * What the broker may declare to the server the configuration names: what the operator permits,
 * over stdio and over HTTP alike, since a server reached by URL sends its requests on the event
 * stream of the call they belong to and the broker relays them as it relays a stdio server's
 * (src/upstream/http.ts, src/upstream/inbound.ts; scenario net.sse-sampling-reaches-agent).
 */
export function declarableCapabilities(config: Config): ClientFacts {
  return permittedCapabilities(config.serverRequests);
}

/** Each capability only where both declare it. */
export function commonCapabilities(a: ClientFacts, b: ClientFacts): ClientFacts {
  return {
    sampling: a.sampling && b.sampling,
    samplingTools: a.samplingTools && b.samplingTools,
    elicitationForm: a.elicitationForm && b.elicitationForm,
    elicitationUrl: a.elicitationUrl && b.elicitationUrl,
    roots: a.roots && b.roots,
  };
}

/** The `capabilities` object that declares them. */
export function capabilitiesValue(facts: ClientFacts): JsonObject {
  const modes = [...(facts.elicitationForm ? (['form'] as const) : []), ...(facts.elicitationUrl ? (['url'] as const) : [])];
  return object([
    ['roots', facts.roots ? object([]) : undefined],
    ['sampling', facts.sampling ? object(facts.samplingTools ? [['tools', object([])]] : []) : undefined],
    ['elicitation', modes.length === 0 ? undefined : object(modes.map((mode) => [mode, object([])] as const))],
  ]);
}

/** What a `capabilities` object declares; anything but an object declares nothing. */
export function readCapabilities(capabilities: JsonValue | undefined): ClientFacts {
  const declared = (key: string): JsonObject | undefined => {
    const value = capabilities?.kind === 'object' ? member(capabilities, key) : undefined;
    return value?.kind === 'object' ? value : undefined;
  };
  const sampling = declared('sampling');
  const elicitation = declared('elicitation');
  // An empty elicitation capability is the form mode of 2025-06-18.
  const modes = elicitation === undefined ? [] : elicitation.entries.map(([key]) => key);
  return {
    sampling: sampling !== undefined,
    samplingTools: sampling !== undefined && member(sampling, 'tools')?.kind === 'object',
    elicitationForm: elicitation !== undefined && (modes.length === 0 || modes.includes('form')),
    elicitationUrl: modes.includes('url'),
    roots: declared('roots') !== undefined,
  };
}
