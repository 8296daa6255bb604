// Non-text content an operator lets through (`non_text: pass`): images, audio, resource links and
// embedded resources, in tool results and prompt messages, and blob contents of a read. Passed on
// means rebuilt from the protocol's own fields (MCP 2025-11-25's ImageContent, AudioContent,
// ResourceLink, EmbeddedResource, BlobResourceContents) with each checked: base64 that is valid
// base64, a media type that is a well-formed `type/subtype` of the kind the block says it is, URIs
// that parse. Anything else a server put in a block (an unknown member, a `_meta`, an icon) is
// dropped, and a block that fails a check is withheld as under `withhold`. The text such a block
// holds (an embedded resource's text, a link's name and description) is inspected with the rest of
// the message by the outbound stage or inspect-feature-contents, whose bounds also bound its size.

import { member, object, plain } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';

/** At most this many non-text blocks of one result or answer are passed; the rest are withheld. */
export const MAX_PASSED_NON_TEXT = 16;

/** Canonical base64 (RFC 4648 §4, with padding): what `data` and `blob` must be. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A media type without parameters (RFC 6838 §4.2's restricted names), compared lower-case. */
const MEDIA_TYPE = /^([a-z0-9][a-z0-9!#$&^_.+-]{0,126})\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

const str = (block: JsonObject, key: string): string | undefined => {
  const value = member(block, key);
  return value?.kind === 'string' ? value.value : undefined;
};

/** The media type lower-cased when well-formed (and of `kind`'s top-level type when given); undefined otherwise. */
function mediaType(value: string | undefined, kind?: string): string | undefined {
  const lower = value?.toLowerCase();
  const top = lower === undefined ? undefined : MEDIA_TYPE.exec(lower)?.[1];
  return top === undefined || (kind !== undefined && top !== kind) ? undefined : lower;
}

const base64 = (value: string | undefined): string | undefined => (value !== undefined && BASE64.test(value) ? value : undefined);
const uri = (value: string | undefined): string | undefined => (value !== undefined && URL.canParse(value) ? value : undefined);

/** Annotations with the protocol's three members only, each of its type; undefined when none is left. */
function annotations(block: JsonObject): JsonValue | undefined {
  const given = member(block, 'annotations');
  if (given?.kind !== 'object') return undefined;
  const audience = member(given, 'audience');
  const roles = audience?.kind === 'array' && audience.items.every((role) => role.kind === 'string' && (role.value === 'user' || role.value === 'assistant')) ? audience : undefined;
  const priority = member(given, 'priority');
  const kept = object([
    ['audience', roles],
    ['priority', priority?.kind === 'number' ? priority : undefined],
    ['lastModified', str(given, 'lastModified') === undefined ? undefined : member(given, 'lastModified')],
  ]);
  return kept.entries.length === 0 ? undefined : kept;
}

/** A required member missing or failing its check makes the whole block unpassable. */
const all = (required: readonly (string | undefined)[]): boolean => required.every((value) => value !== undefined);

/** The contents of an embedded resource or a read: a URI, an optional media type, and text or base64 blob. */
export function passableContents(contents: JsonValue): JsonObject | undefined {
  if (contents.kind !== 'object') return undefined;
  const address = uri(str(contents, 'uri'));
  const given = str(contents, 'mimeType');
  const type = given === undefined ? undefined : mediaType(given);
  if (address === undefined || (given !== undefined && type === undefined)) return undefined;
  const text = str(contents, 'text');
  const blob = base64(str(contents, 'blob'));
  // Exactly one of the two: a blob that is not base64 is not passed as if it were text.
  if ((text === undefined) === (member(contents, 'blob') === undefined) || (text === undefined && blob === undefined)) return undefined;
  return object([['uri', plain(address)], ['mimeType', type === undefined ? undefined : plain(type)], text === undefined ? ['blob', plain(blob!)] : ['text', plain(text)]]);
}

/**
 * `block` rebuilt from its protocol fields when it is a well-formed image, audio, resource link or
 * embedded resource; undefined when it is none of these or fails a check.
 */
export function passableBlock(block: JsonValue): JsonObject | undefined {
  if (block.kind !== 'object') return undefined;
  const type = str(block, 'type');
  if (type === 'image' || type === 'audio') {
    const data = base64(str(block, 'data'));
    const mime = mediaType(str(block, 'mimeType'), type);
    if (!all([data, mime])) return undefined;
    return object([['type', plain(type)], ['data', plain(data!)], ['mimeType', plain(mime!)], ['annotations', annotations(block)]]);
  }
  if (type === 'resource_link') {
    const address = uri(str(block, 'uri'));
    const name = str(block, 'name');
    const given = str(block, 'mimeType');
    const mime = given === undefined ? undefined : mediaType(given);
    const size = member(block, 'size');
    if (!all([address, name]) || (given !== undefined && mime === undefined)) return undefined;
    return object([
      ['type', plain(type)],
      ['uri', plain(address!)],
      ['name', plain(name!)],
      ['title', str(block, 'title') === undefined ? undefined : member(block, 'title')],
      ['description', str(block, 'description') === undefined ? undefined : member(block, 'description')],
      ['mimeType', mime === undefined ? undefined : plain(mime)],
      ['size', size?.kind === 'number' && /^\d{1,15}$/.test(size.text) ? size : undefined],
      ['annotations', annotations(block)],
    ]);
  }
  if (type === 'resource') {
    const inner = member(block, 'resource');
    const contents = inner === undefined ? undefined : passableContents(inner);
    if (contents === undefined) return undefined;
    return object([['type', plain(type)], ['resource', contents], ['annotations', annotations(block)]]);
  }
  return undefined;
}

/**
 * A function that passes each non-text block it is given as `normalise` rebuilds it, while fewer
 * than MAX_PASSED_NON_TEXT have passed, and returns `withheld(block)` for the others: one per
 * result or answer, so the count is over all of its blocks.
 */
export function nonTextPasser(withheld: (block: JsonValue) => JsonValue, normalise: (block: JsonValue) => JsonObject | undefined = passableBlock): (block: JsonValue) => JsonValue {
  let passed = 0;
  return (block) => {
    const normalised = passed < MAX_PASSED_NON_TEXT ? normalise(block) : undefined;
    if (normalised === undefined) return withheld(block);
    passed++;
    return normalised;
  };
}
