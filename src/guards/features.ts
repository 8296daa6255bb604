// The guards of resources, prompts and completion (docs/reference-broker.md). The agent is
// offered only what the operator allows and the pin holds, inspected; a request about anything
// else is refused before the server is asked, answered exactly as one about something that exists
// nowhere; and what the server answers is withheld, bounded, inspected and capped as a result is.

import { ERROR, brokerError } from '../wire/jsonrpc.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { codePoints } from '../inspect/bounds.js';
import { capTexts } from '../result/cap.js';
import { placeholder, withMembers } from '../result/content.js';
import { nonTextPasser, passableContents } from '../result/non-text.js';
import { inspectMessage, type Channel } from '../inspect/stage.js';
import { descriptorHash } from '../features/pins.js';
import type { AnswerVerdict, DescriptorVerdict, FeatureRequest, JsonObject, JsonValue, Offered, FeatureRequestVerdict } from '../types.js';
import type { FeatureGuard } from './types.js';
import { nameKey } from '../normal/name.js';
import { allowedTemplate, allowedUri, expandsTemplate, normaliseUri } from '../features/uri.js';

/** MCP's own bound on one completion answer. */
export const MAX_COMPLETION_VALUES = 100;
/** A suggestion longer than this is no suggestion an agent needs; it is dropped. */
export const MAX_COMPLETION_VALUE_CHARS = 200;

/**
 * The answers to a request about something the agent is not offered: the same whatever it names,
 * but for a resource's URI given back as the agent wrote it (`data.uri`, as MCP's example of the
 * error has it), which tells the agent nothing it did not send.
 */
export const NOT_OFFERED = {
  resource: (asked: JsonValue | undefined) => withMembers(brokerError(-32002, 'Resource not found'), [['data', asked?.kind === 'string' ? object([['uri', asked]]) : undefined]]),
  prompt: () => brokerError(ERROR.invalidParams, 'Unknown prompt'),
  reference: () => brokerError(ERROR.invalidParams, 'Unknown reference'),
};

const pass = (request: FeatureRequest): FeatureRequestVerdict => ({ ok: true, params: request.params });
const refuse = (error: JsonObject): FeatureRequestVerdict => ({ ok: false, error });
const withhold = (reason: string): DescriptorVerdict => ({ ok: false, reason });

/** The reference of a completion request, when it has one of the kind given. */
function refOf(request: FeatureRequest, type: 'ref/prompt' | 'ref/resource'): JsonObject | undefined {
  if (request.method !== 'completion/complete') return undefined;
  const ref = member(request.params, 'ref');
  return ref?.kind === 'object' && stringValue(member(ref, 'type')) === type ? ref : undefined;
}

const offeredPrompt = (offered: Offered, name: string | undefined) => offered.prompts.find((prompt) => stringValue(member(prompt, 'name')) === name);

export const featurePin: FeatureGuard = {
  name: 'feature-pin',
  present({ descriptor, shown, pins }) {
    const pinned = pins?.get(descriptor.kind)?.get(descriptor.key);
    if (pinned === undefined) return withhold('it was not pinned');
    return pinned === descriptorHash(descriptor.listed) ? { ok: true, shown } : withhold('it is not the descriptor that was pinned');
  },
};

const RESOURCE_METHODS: ReadonlySet<string> = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

export const resourceUriAllowed: FeatureGuard = {
  name: 'resource-uri-allowed',
  present({ descriptor, shown, config }) {
    const allow = config.resources?.allow ?? [];
    if (descriptor.kind === 'template') return allowedTemplate(descriptor.key, allow) ? { ok: true, shown } : withhold('the operator allows no such template');
    if (descriptor.kind !== 'resource') return { ok: true, shown };
    const uri = normaliseUri(descriptor.key);
    if (!uri.ok || !allowedUri(uri.href, allow)) return withhold('the operator allows no such URI');
    // Offered as it will be judged when read.
    return { ok: true, shown: withMembers(shown, [['uri', plain(uri.href)]]) };
  },
  request(request, offered) {
    const ref = refOf(request, 'ref/resource');
    if (ref !== undefined) {
      const template = stringValue(member(ref, 'uri'));
      return offered.templates.some((offeredTemplate) => stringValue(member(offeredTemplate, 'uriTemplate')) === template) ? pass(request) : refuse(NOT_OFFERED.reference());
    }
    if (!RESOURCE_METHODS.has(request.method)) return pass(request);
    const asked = member(request.params, 'uri');
    const uri = normaliseUri(stringValue(asked) ?? '');
    if (!uri.ok) return refuse(NOT_OFFERED.resource(asked));
    const listed = offered.resources.some((resource) => stringValue(member(resource, 'uri')) === uri.href);
    // A resource withheld at Load is not read through a template that happens to match its URI.
    const expanded = !offered.hidden.has(uri.href) && offered.templates.some((template) => expandsTemplate(stringValue(member(template, 'uriTemplate')) ?? '', uri.href));
    // What was judged is what the server is asked for.
    return listed || expanded ? { ok: true, params: withMembers(request.params, [['uri', plain(uri.href)]]) } : refuse(NOT_OFFERED.resource(asked));
  },
};

export const promptAllowed: FeatureGuard = {
  name: 'prompt-allowed',
  present({ descriptor, shown, config }) {
    if (descriptor.kind !== 'prompt' || config.prompts?.has(descriptor.key) === true) return { ok: true, shown };
    return withhold('the operator allows no such prompt');
  },
  request(request, offered) {
    const ref = refOf(request, 'ref/prompt');
    if (ref !== undefined) return offeredPrompt(offered, stringValue(member(ref, 'name'))) ? pass(request) : refuse(NOT_OFFERED.reference());
    if (request.method !== 'prompts/get') return pass(request);
    return offeredPrompt(offered, stringValue(member(request.params, 'name'))) ? pass(request) : refuse(NOT_OFFERED.prompt());
  },
};

export const inspectFeatureDescriptors: FeatureGuard = {
  name: 'inspect-feature-descriptors',
  present({ shown }) {
    const inspected = inspectMessage(shown, 'descriptor');
    if (!inspected.ok) return withhold(`its descriptor is withheld: ${inspected.problem}`);
    return { ok: true, shown: inspected.message as JsonObject };
  },
};

/** The arguments a prompt declares: each name, and whether it is required. */
function declaredArguments(prompt: JsonObject): Map<string, boolean> {
  const declared = member(prompt, 'arguments');
  const items = declared?.kind === 'array' ? declared.items : [];
  return new Map(items.flatMap((item) => {
    const name = item.kind === 'object' ? stringValue(member(item, 'name')) : undefined;
    return name === undefined || item.kind !== 'object' ? [] : [[name, member(item, 'required')?.kind === 'bool' && (member(item, 'required') as { value: boolean }).value] as const];
  }));
}

export const promptArgumentsValid: FeatureGuard = {
  name: 'prompt-arguments-valid',
  request(request, offered) {
    const invalid = (why: string) => refuse(brokerError(ERROR.invalidParams, `Invalid arguments: ${why}`));
    const ref = refOf(request, 'ref/prompt');
    const prompt = offeredPrompt(offered, stringValue(member(ref ?? request.params, 'name')));
    if (prompt === undefined || (ref === undefined && request.method !== 'prompts/get')) return pass(request);
    const declared = declaredArguments(prompt);
    if (ref !== undefined) {
      const argument = member(request.params, 'argument');
      const name = argument?.kind === 'object' ? stringValue(member(argument, 'name')) : undefined;
      return name !== undefined && declared.has(name) ? pass(request) : invalid('the prompt declares no such argument');
    }
    const given = member(request.params, 'arguments') ?? object([]);
    if (given.kind !== 'object') return invalid('arguments must be an object');
    for (const [name, value] of given.entries) {
      if (!declared.has(name)) return invalid(`the prompt declares no argument ${JSON.stringify(name)}`);
      if (value.kind !== 'string') return invalid(`argument ${JSON.stringify(name)} must be a string`);
    }
    for (const [name, required] of declared) if (required && member(given, name) === undefined) return invalid(`argument ${JSON.stringify(name)} is required`);
    return pass(request);
  },
};

/** The items of an array member of an object answer; empty otherwise. */
function itemsOf(result: JsonValue, key: string): readonly JsonValue[] {
  const items = result.kind === 'object' ? member(result, key) : undefined;
  return items?.kind === 'array' ? items.items : [];
}

/** The result with each item of its array member `key` mapped. */
function mapItems(result: JsonValue, key: string, map: (item: JsonValue) => JsonValue): JsonValue {
  if (result.kind !== 'object' || member(result, key)?.kind !== 'array') return result;
  return withMembers(result, [[key, { kind: 'array', items: itemsOf(result, key).map(map) }]]);
}

/** A prompt message with its content replaced. */
const withContent = (message: JsonValue, content: (block: JsonValue) => JsonValue): JsonValue =>
  message.kind === 'object' && member(message, 'content') !== undefined ? withMembers(message, [['content', content(member(message, 'content')!)]]) : message;

/** A read's blob contents as a text placeholder naming what it held. */
function withheldBlob(item: JsonValue): JsonValue {
  if (item.kind !== 'object') return placeholder(item);
  const what = stringValue(member(item, 'mimeType')) ?? stringValue(member(item, 'uri'));
  return object([['uri', member(item, 'uri')], ['mimeType', plain('text/plain')], ['text', plain(`[withheld: blob${what === undefined ? '' : ` ${what}`}]`)]]);
}

export const withholdFeatureBlobs: FeatureGuard = {
  name: 'withhold-feature-blobs',
  answer(result, { request, nonText }) {
    // With `non_text: pass`, well-formed blobs and non-text prompt content pass rebuilt from their
    // protocol fields, a bounded number an answer (src/result/non-text.ts).
    const passing = nonText === 'pass';
    if (request.method === 'resources/read') {
      const blob = passing ? nonTextPasser(withheldBlob, passableContents) : withheldBlob;
      return { ok: true, result: mapItems(result, 'contents', (item) => (item.kind !== 'object' || member(item, 'blob') === undefined ? item : blob(item))) };
    }
    if (request.method !== 'prompts/get') return { ok: true, result };
    // A prompt message is otherwise shown as text only: an image, audio or embedded resource is withheld as in a result.
    const other = passing ? nonTextPasser(placeholder) : placeholder;
    return { ok: true, result: mapItems(result, 'messages', (message) => withContent(message, (block) => (block.kind === 'object' && stringValue(member(block, 'type')) === 'text' ? block : other(block)))) };
  },
};

/** The suggestions of a completion answer, as strings; anything else in the list is no suggestion. */
/** A completion as the guards judge it: its string values, hasMore, and total when it is a plain count. */
interface Completion {
  readonly values: string[];
  readonly hasMore: boolean;
  readonly total: number | undefined;
}

/** A count written as digits only, small enough to be exact: anything else is not passed on. */
const COUNT = /^(?:0|[1-9]\d{0,14})$/;

function completionValues(result: JsonValue): Completion {
  const completion = result.kind === 'object' ? member(result, 'completion') : undefined;
  const values = completion?.kind === 'object' ? itemsOf(completion, 'values').flatMap((value) => (value.kind === 'string' ? [value.value] : [])) : [];
  const more = completion?.kind === 'object' ? member(completion, 'hasMore') : undefined;
  const total = completion?.kind === 'object' ? member(completion, 'total') : undefined;
  return { values, hasMore: more?.kind === 'bool' && more.value, total: total?.kind === 'number' && COUNT.test(total.text) ? Number(total.text) : undefined };
}

/**
 * MCP 2025-11-25's `completion`: the values, `total` (how many options exist, which may exceed
 * the values sent) only when it counts at least the values sent, and `hasMore`.
 */
const completionResult = ({ values, hasMore, total }: Completion): JsonValue =>
  plain({ completion: { values: [...values], ...(total === undefined || total < values.length ? {} : { total }), hasMore } });

export const completionBounded: FeatureGuard = {
  name: 'completion-bounded',
  answer(result, { request }) {
    if (request.method !== 'completion/complete') return { ok: true, result };
    const { values, hasMore, total } = completionValues(result);
    const fitting = values.filter((value) => codePoints(value) <= MAX_COMPLETION_VALUE_CHARS);
    const kept = fitting.slice(0, MAX_COMPLETION_VALUES);
    // The options past the bound still exist: the server's total still counts them.
    return { ok: true, result: completionResult({ values: kept, hasMore: hasMore || kept.length < values.length, total }) };
  },
};

export const completionNoHiddenNames: FeatureGuard = {
  name: 'completion-no-hidden-names',
  answer(result, { request, offered }) {
    if (request.method !== 'completion/complete') return { ok: true, result };
    const completion = completionValues(result);
    // A name of nothing but hidden characters has an empty key, which every suggestion holds.
    const hidden = [...offered.hidden].map(nameKey).filter((key) => key !== '');
    // A suggestion that names what the agent is not offered tells it that thing exists, under any
    // spelling of its name (src/normal/name.ts); so would a total that still counts it, so a total
    // is passed on only when nothing was dropped.
    const values = completion.values.filter((value) => {
      const key = nameKey(value);
      return !hidden.some((name) => key.includes(name));
    });
    return { ok: true, result: completionResult({ ...completion, values, total: values.length === completion.values.length ? completion.total : undefined }) };
  },
};

/** The answers that carry what a server chose, each the outbound stage's channel for it. */
const ANSWERED: ReadonlyMap<string, Channel> = new Map([
  ['resources/read', 'resource'],
  ['prompts/get', 'prompt'],
  ['completion/complete', 'completion'],
]);

export const inspectFeatureContents: FeatureGuard = {
  name: 'inspect-feature-contents',
  answer(result, { request }): AnswerVerdict {
    const channel = ANSWERED.get(request.method);
    if (channel === undefined) return { ok: true, result };
    const inspected = inspectMessage(result, channel);
    if (inspected.ok) return { ok: true, result: inspected.message };
    return { ok: false, error: brokerError(ERROR.upstream, `The server's answer is withheld: ${inspected.problem}.`) };
  },
};

/** Where each answer keeps the text the agent reads: read contents, or prompt messages' text content. */
function capped(result: JsonValue, method: string, cap: number): JsonValue {
  const key = method === 'resources/read' ? 'contents' : 'messages';
  const holder = (item: JsonValue): JsonValue | undefined => (method === 'resources/read' ? item : item.kind === 'object' ? member(item, 'content') : undefined);
  const texts = itemsOf(result, key).map((item) => {
    const held = holder(item);
    return held?.kind === 'object' ? stringValue(member(held, 'text')) : undefined;
  });
  const { texts: kept, cut } = capTexts(texts.flatMap((text) => (text === undefined ? [] : [text])), cap);
  if (!cut) return result;
  let next = 0;
  return mapItems(result, key, (item) => {
    const held = holder(item);
    if (held?.kind !== 'object' || stringValue(member(held, 'text')) === undefined) return item;
    const text = plain(kept[next++] ?? '');
    return method === 'resources/read' ? withMembers(held, [['text', text]]) : withContent(item, () => withMembers(held, [['text', text]]));
  });
}

export const featureContentCap: FeatureGuard = {
  name: 'feature-content-cap',
  answer(result, { request, limits }) {
    if (request.method !== 'resources/read' && request.method !== 'prompts/get') return { ok: true, result };
    return { ok: true, result: capped(result, request.method, limits.maxResultChars) };
  },
};
