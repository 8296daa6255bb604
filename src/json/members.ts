// Small readings of the JSON a server's own requests and notifications carry.

import { mapTree, member, object, withText } from './tree.js';
import type { JsonObject, JsonValue } from '../types.js';

/** Every string in a value, keys included. */
export function stringsIn(value: JsonValue | undefined): string[] {
  if (value === undefined) return [];
  switch (value.kind) {
    case 'string':
      return [value.value];
    case 'array':
      return value.items.flatMap(stringsIn);
    case 'object':
      return value.entries.flatMap(([key, item]) => [key, ...stringsIn(item)]);
    default:
      return [];
  }
}

/** Code points, as every bound of the broker counts text. */
export const codePoints = (texts: readonly string[]): number => texts.reduce((sum, text) => sum + [...text].length, 0);

/** Every string value of a value mapped, and every key by `mapKey` (by default kept). */
export function mapStrings(value: JsonValue, map: (text: string) => string, mapKey?: (key: string) => string): JsonValue {
  return mapTree(value, (node) => withText(node, map(node.value)), mapKey);
}

/** The object with these members replaced (in place) or, when it lacks them, added. */
export function withMembers(target: JsonObject, replaced: Readonly<Record<string, JsonValue>>): JsonObject {
  const kept = target.entries.map(([key, value]) => [key, Object.hasOwn(replaced, key) ? replaced[key] : value] as const);
  const added = Object.entries(replaced).filter(([key]) => member(target, key) === undefined);
  return object([...kept, ...added]);
}

/** The members of `target` that are present, by key. */
export function presentMembers(target: JsonObject, keys: readonly string[]): Array<readonly [string, JsonValue]> {
  return keys.flatMap((key) => {
    const value = member(target, key);
    return value === undefined ? [] : [[key, value] as const];
  });
}
