// A tool result's content blocks. Text is the only content the broker can inspect, so every other
// block is replaced by a text placeholder that names what was withheld and nothing more.

import { member, object, plain, stringValue } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';

/** The result's content blocks; empty when it has none (or content that is not a list). */
export function contentBlocks(result: JsonObject): readonly JsonValue[] {
  const content = member(result, 'content');
  return content?.kind === 'array' ? content.items : [];
}

/** The result with `entries` replacing its members of the same keys (appended when new). */
export function withMembers(result: JsonObject, entries: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const replaced = new Map(entries);
  const kept = result.entries.map(([key, value]) => [key, replaced.has(key) ? replaced.get(key) : value] as const);
  const added = entries.filter(([key]) => member(result, key) === undefined);
  return object([...kept, ...added]);
}

/** The text of a text block, or undefined for any other block. */
export function blockText(block: JsonValue): string | undefined {
  return block.kind === 'object' && stringValue(member(block, 'type')) === 'text' ? stringValue(member(block, 'text')) : undefined;
}

export function textBlock(text: string): JsonValue {
  return plain({ type: 'text', text });
}

/** `[withheld: <type> <mimeType or uri>]`: the type, and what the block says it holds. */
export function placeholder(block: JsonValue): JsonValue {
  if (block.kind !== 'object') return textBlock('[withheld: content]');
  const type = stringValue(member(block, 'type')) ?? 'content';
  const resource = member(block, 'resource');
  const inner = resource?.kind === 'object' ? resource : block;
  const what = stringValue(member(inner, 'mimeType')) ?? stringValue(member(inner, 'uri'));
  return textBlock(`[withheld: ${type}${what === undefined ? '' : ` ${what}`}]`);
}
