import { isDeepStrictEqual } from 'node:util';
import type { Answer } from '../agent/client.js';
import { HINT_DEFAULTS } from '../expect/list/effective-hints.js';
import { canonical, isObject, payloadOf, withoutOwnMeta } from './normalise.js';
import type { Observed } from './observe.js';
import type { TransparencyResult } from './types.js';
import { LISTED } from '../candidates/offered-names.js';

export type Judgement = Pick<TransparencyResult, 'verdict' | 'requirement' | 'detail'>;

/**
 * A tool's annotations as the agent reads them: each hint MCP defines with its default where it is
 * absent, and `destructiveHint` and `idempotentHint` set aside for a read-only tool, since the
 * specification makes them meaningful only when `readOnlyHint` is false. Two listings that spell
 * the same hints differently (one leaves a default out, one states it) tell the agent the same
 * thing; any hint given, other value or member is compared as sent.
 */
function hintsAsRead(annotations: unknown): Record<string, unknown> {
  const given = isObject(annotations) ? annotations : {};
  const read: Record<string, unknown> = { ...given };
  for (const [hint, fallback] of Object.entries(HINT_DEFAULTS)) read[hint] = given[hint] ?? fallback;
  if (read.readOnlyHint === true) {
    delete read.destructiveHint;
    delete read.idempotentHint;
  }
  return read;
}

/**
 * A listing's items in the order of their keys, when each has its own: MCP gives a listing's order
 * no meaning, and a server that registers some tools once the client's capabilities are known
 * lists them in an order that depends on when, direct as through a broker.
 */
function byKeyOrder(items: unknown[], key: string): unknown[] {
  const keys = items.map((item) => (isObject(item) && typeof item[key] === 'string' ? item[key] : undefined));
  if (keys.some((found) => found === undefined) || new Set(keys).size !== keys.length) return items;
  return items.map((item, index) => [keys[index]!, item] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

/**
 * What of an answer is compared: for initialize, what of it is the server's (the rest is the
 * broker's own handshake); for a listing, its items in key order, and each tool's hints as the
 * agent reads them.
 */
function viewOf(id: string, payload: unknown): unknown {
  if (!isObject(payload)) return payload;
  if (id === 'initialize') return { protocolVersion: payload.protocolVersion, instructions: payload.instructions };
  const view: Record<string, unknown> = { ...payload };
  for (const { field, key } of Object.values(LISTED)) if (Array.isArray(view[field])) view[field] = byKeyOrder(view[field], key);
  if (!Array.isArray(view.tools)) return view;
  return { ...view, tools: view.tools.map((tool: unknown) => (isObject(tool) ? { ...tool, annotations: hintsAsRead(tool.annotations) } : tool)) };
}

function describe(answer: Answer): string {
  switch (answer.kind) {
    case 'result':
      return 'a result';
    case 'error':
      return `error ${answer.error.code} ${JSON.stringify(answer.error.message.slice(0, 300))}`;
    case 'malformed':
      return `a malformed line (${answer.why})`;
    case 'closed':
      return 'nothing: the channel closed';
    case 'timeout':
      return 'nothing within the time bound';
  }
}

/**
 * The compared whole of an observation: its answer, the requests the agent was asked, its
 * progress. Through the candidate, the `_meta` members the broker added of its own (to the answer,
 * and to each progress notification, against the direct one in the same place) are set aside.
 */
function compared(observed: Observed, direct?: Observed): { answer: unknown; requests: unknown; progress: unknown } {
  const payload = payloadOf(observed.answer);
  const own = direct === undefined ? payload : withoutOwnMeta(payload, payloadOf(direct.answer));
  const progress = direct === undefined ? observed.progress : observed.progress.map((params, index) => withoutOwnMeta(params, direct.progress[index]));
  return { answer: canonical(viewOf(observed.id, own)), requests: canonical(observed.requests), progress: canonical(progress) };
}

/** A text item that stands in for withheld content: WTH-1 asks that it name the kind withheld. */
const PLACEHOLDER = /withheld|image|audio|resource|blob|binary|non-text/i;

/**
 * Whether `candidate` is `direct` with some non-text items withheld: each item the same, or a
 * non-text item replaced by one placeholder or left out; nothing else changed, nothing added.
 */
function withheldOnly(direct: unknown[], candidate: unknown[], nonText: (item: unknown) => boolean, placeholder: (item: unknown, withheld: unknown) => boolean): boolean {
  let next = 0;
  for (const item of direct) {
    if (next < candidate.length && isDeepStrictEqual(candidate[next], item)) next++;
    else if (!nonText(item)) return false;
    else if (next < candidate.length && placeholder(candidate[next], item)) next++;
  }
  return next === candidate.length;
}

const textItem = (item: unknown): boolean => isObject(item) && item.type === 'text';
const placeholderText = (item: unknown): boolean => textItem(item) && typeof (item as { text?: unknown }).text === 'string' && PLACEHOLDER.test((item as { text: string }).text);

/** `member` of both answers aligned by withheldOnly, and everything else about them equal. */
function membersWithheld(direct: unknown, candidate: unknown, member: string, nonText: (item: unknown) => boolean, placeholder: (item: unknown, withheld: unknown) => boolean): boolean {
  if (!isObject(direct) || !isObject(candidate)) return false;
  const ours = direct[member];
  const theirs = candidate[member];
  if (!Array.isArray(ours) || !Array.isArray(theirs)) return false;
  const { [member]: _a, ...directRest } = direct;
  const { [member]: _b, ...candidateRest } = candidate;
  return isDeepStrictEqual(directRest, candidateRest) && withheldOnly(ours, theirs, nonText, placeholder);
}

/** The default description cap (DSC-2): a longer description may reach the agent cut, marked. */
const DESCRIPTION_CAP = 1_000;

/** A listing whose descriptions past the cap were cut (keeping their start), and nothing else changed. */
function descriptionsCut(direct: unknown, candidate: unknown): boolean {
  if (!isObject(direct) || !isObject(candidate)) return false;
  const member = ['tools', 'prompts', 'resources', 'resourceTemplates'].find((name) => Array.isArray(direct[name]));
  if (member === undefined || !Array.isArray(candidate[member])) return false;
  const ours = direct[member] as unknown[];
  const theirs = candidate[member] as unknown[];
  if (ours.length !== theirs.length) return false;
  const restored = theirs.map((item, index) => {
    const original = ours[index];
    if (!isObject(item) || !isObject(original) || typeof original.description !== 'string' || typeof item.description !== 'string') return item;
    const cut = original.description.length > DESCRIPTION_CAP && item.description.startsWith(original.description.slice(0, DESCRIPTION_CAP / 2));
    return cut ? { ...item, description: original.description } : item;
  });
  return isDeepStrictEqual(direct, { ...candidate, [member]: restored });
}

/** `value` with every string in NFKC form. */
function nfkc(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFKC');
  if (Array.isArray(value)) return value.map(nfkc);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, nfkc(member)]));
  return value;
}

/** A tools listing in which only the tools' annotations differ. */
function annotationsReplaced(direct: unknown, candidate: unknown): boolean {
  if (!isObject(direct) || !isObject(candidate) || !Array.isArray(direct.tools) || !Array.isArray(candidate.tools)) return false;
  const bare = (listing: Record<string, unknown>) => ({ ...listing, tools: (listing.tools as unknown[]).map((tool) => (isObject(tool) ? { ...tool, annotations: undefined } : tool)) });
  return isDeepStrictEqual(bare(direct), bare(candidate));
}

/**
 * The requirements that may change what a permitting operator lets through, each with what it
 * permits: only a difference it explains makes an operation `changed` rather than `broken`.
 */
const EXPLANATIONS: ReadonlyArray<{ requirement: string; what: string; explains: (method: string, direct: unknown, candidate: unknown) => boolean }> = [
  {
    requirement: 'WTH-1',
    what: 'non-text content of a result withheld behind a placeholder',
    explains: (method, d, c) => method === 'tools/call' && membersWithheld(d, c, 'content', (item) => !textItem(item), placeholderText),
  },
  {
    requirement: 'RSC-4',
    what: "a resource's blob replaced by a placeholder",
    explains: (method, d, c) =>
      method === 'resources/read' &&
      membersWithheld(
        d,
        c,
        'contents',
        (item) => isObject(item) && item.blob !== undefined,
        (item, withheld) => isObject(item) && isObject(withheld) && item.uri === withheld.uri && typeof item.text === 'string',
      ),
  },
  {
    requirement: 'PRM-3',
    what: "a prompt message's embedded resource, image or audio replaced by a placeholder",
    explains: (method, d, c) =>
      method === 'prompts/get' &&
      membersWithheld(
        d,
        c,
        'messages',
        (message) => isObject(message) && !textItem(message.content),
        (message, withheld) => isObject(message) && isObject(withheld) && message.role === withheld.role && placeholderText(message.content),
      ),
  },
  {
    requirement: 'CLS-3',
    what: "the tools' annotations replaced by those of the operator's effect class",
    explains: (method, d, c) => method === 'tools/list' && annotationsReplaced(d, c),
  },
  { requirement: 'INS-1', what: 'text in Unicode normal form (NFKC)', explains: (_method, d, c) => isDeepStrictEqual(nfkc(d), c) },
  { requirement: 'DSC-2', what: 'a description past the cap cut, its start kept', explains: (method, d, c) => method.endsWith('/list') && descriptionsCut(d, c) },
];

/** What an item of a listing is known by: a template by its URI template, a resource by its URI, a tool or prompt by its name. */
function itemKey(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const key = item.uriTemplate ?? item.uri ?? item.name;
  return typeof key === 'string' ? key : undefined;
}

/** Each item by its key, when every item of the list has one and no two share it. */
function byKey(list: unknown[]): Map<string, unknown> | undefined {
  const keyed = new Map(list.map((item) => [itemKey(item), item] as const));
  return keyed.has(undefined) || keyed.size !== list.length ? undefined : (keyed as Map<string, unknown>);
}

/**
 * The first difference between two listings compared item by item under their keys (an item
 * missing on one side shifts every later position, so positions would name the wrong items), or
 * undefined when the lists are not listings.
 */
function listingDifference(a: unknown[], b: unknown[], path: string): string | undefined {
  const [ours, theirs] = [byKey(a), byKey(b)];
  if (ours === undefined || theirs === undefined) return undefined;
  for (const [key, item] of ours) {
    if (!theirs.has(key)) return `at ${path}: direct lists ${JSON.stringify(key)}, through the candidate it is absent`;
    const found = firstDifference(item, theirs.get(key), `${path}/${JSON.stringify(key)}`);
    if (found) return found;
  }
  const added = [...theirs.keys()].find((key) => !ours.has(key));
  return added === undefined ? undefined : `at ${path}: through the candidate ${JSON.stringify(added)} is listed, direct it is not`;
}

/** The first difference between two JSON values, as a path and both sides, for the detail. */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (isDeepStrictEqual(a, b)) return '';
  const listing = Array.isArray(a) && Array.isArray(b) ? listingDifference(a, b, path) : undefined;
  if (listing !== undefined) return listing;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      const found = firstDifference(a[index], b[index], `${path}/${index}`);
      if (found) return found;
    }
  } else if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], `${path}/${key}`);
      if (found) return found;
    }
  }
  if (typeof a === 'string' && typeof b === 'string') {
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 80));
    return `at ${path || '/'}, character ${at}: direct ${around(a)}, through the candidate ${around(b)}`;
  }
  const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value).slice(0, 200));
  return `at ${path || '/'}: direct ${show(a)}, through the candidate ${show(b)}`;
}

/** The verdict on one operation: what the agent received through the candidate against what it received direct. */
export function judgeOperation(method: string, direct: Observed, candidate: Observed | undefined): Judgement {
  if (direct.answer.kind !== 'result') return { verdict: 'not-applicable', detail: `direct, the agent received ${describe(direct.answer)}` };
  if (candidate === undefined) return { verdict: 'broken', detail: 'through the candidate the session ended before this operation' };
  if (candidate.answer.kind !== 'result') return { verdict: 'broken', detail: `direct, a result; through the candidate, ${describe(candidate.answer)}` };
  const ours = compared(direct);
  const theirs = compared(candidate, direct);
  if (isDeepStrictEqual(ours, theirs)) return { verdict: 'preserved', detail: 'the same answer, requests and progress as direct' };
  const sideTrafficSame = isDeepStrictEqual(ours.requests, theirs.requests) && isDeepStrictEqual(ours.progress, theirs.progress);
  const explained = sideTrafficSame ? EXPLANATIONS.find((explanation) => explanation.explains(method, ours.answer, theirs.answer)) : undefined;
  if (explained !== undefined) return { verdict: 'changed', requirement: explained.requirement, detail: `${explained.what} (${firstDifference(ours.answer, theirs.answer)})` };
  return { verdict: 'broken', detail: firstDifference(ours, theirs) };
}
