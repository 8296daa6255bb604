// Resources, resource templates and prompts as the broker handles them: the descriptors a server
// lists, what the agent is offered of them, the requests the agent makes about them, and the
// shape of the guards that decide each (src/guards/features.ts).

import type { Config, Limits } from '../config.js';
import type { JsonObject, JsonValue } from '../json/tree.js';

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
export type RequestVerdict = { readonly ok: true; readonly params: JsonObject } | { readonly ok: false; readonly error: JsonObject };

/** What an answer guard sees of the server's answer. */
export interface AnswerSubject {
  readonly request: FeatureRequest;
  readonly offered: Offered;
  readonly limits: Limits;
}

/** The answer as the agent may see it, or why the agent gets none of it (a JSON-RPC error). */
export type AnswerVerdict = { readonly ok: true; readonly result: JsonValue } | { readonly ok: false; readonly error: JsonObject };

/**
 * One named protection of resources, prompts and completion. It may act at Load (on each listed
 * descriptor), before the server is asked (on each request), and on each answer; a hook it does
 * not have is a point where it does not act.
 */
export interface FeatureGuard {
  readonly name: string;
  present?(subject: DescriptorSubject): DescriptorVerdict;
  request?(request: FeatureRequest, offered: Offered): RequestVerdict;
  answer?(result: JsonValue, subject: AnswerSubject): AnswerVerdict;
}

/** The member each listing method's answer lists its items under, and the member that keys them. */
export const LISTINGS = {
  'resources/list': { kind: 'resource', field: 'resources', key: 'uri' },
  'resources/templates/list': { kind: 'template', field: 'resourceTemplates', key: 'uriTemplate' },
  'prompts/list': { kind: 'prompt', field: 'prompts', key: 'name' },
} as const satisfies Record<string, { kind: FeatureKind; field: string; key: string }>;
export type ListingMethod = keyof typeof LISTINGS;
