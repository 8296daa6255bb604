// The parsed form of a JSON text. Number literals stay text, because every security decision
// must see the value the sender wrote, not what a float64 can hold. Object entries stay in the
// order they were received, because forwarding must not reorder what it did not decide on.

import type { JsonValue, JsonObject, JsonString, Plain } from '../types.js';

/** The value stored under `key`, or undefined when the object has no such key. */
export function member(object: JsonObject, key: string): JsonValue | undefined {
  for (const [k, v] of object.entries) {
    if (k === key) return v;
  }
  return undefined;
}

/** The string held by `value`, or undefined when it is not a JSON string. */
export function stringValue(value: JsonValue | undefined): string | undefined {
  return value?.kind === 'string' ? value.value : undefined;
}

export function plain(value: Plain): JsonValue {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`plain(): ${value} is not a safe integer`);
    return { kind: 'number', text: String(value) };
  }
  if (typeof value === 'string') return { kind: 'string', value };
  if (isPlainArray(value)) return { kind: 'array', items: value.map(plain) };
  return { kind: 'object', entries: Object.entries(value).map(([k, v]) => [k, plain(v)] as const) };
}

// Array.isArray does not narrow a readonly array type, hence this guard.
export function isPlainArray(value: Plain): value is readonly Plain[] {
  return Array.isArray(value);
}

/** An object assembled from entries; an undefined value leaves its key out. */
export function object(entries: readonly (readonly [string, JsonValue | undefined])[]): JsonObject {
  const kept: (readonly [string, JsonValue])[] = [];
  for (const [k, v] of entries) {
    if (v !== undefined) kept.push([k, v]);
  }
  return { kind: 'object', entries: kept };
}

/**
 * `value` with every string value replaced by what `onString` makes of its node and every key by
 * `onKey`, in document order (an entry's key before its value). A part in which nothing changed
 * is returned itself, not copied: a walk over a value that needs no rewriting allocates nothing.
 * The reader bounds depth, so the recursion is safe.
 */
export function mapTree(value: JsonValue, onString: (node: JsonString) => JsonValue, onKey: (key: string) => string = (key) => key): JsonValue {
  switch (value.kind) {
    case 'string':
      return onString(value);
    case 'array': {
      const items = mapShared(value.items, (item) => mapTree(item, onString, onKey));
      return items === value.items ? value : { kind: 'array', items };
    }
    case 'object': {
      const entries = mapShared(value.entries, (entry) => {
        const key = onKey(entry[0]);
        const item = mapTree(entry[1], onString, onKey);
        return key === entry[0] && item === entry[1] ? entry : ([key, item] as const);
      });
      return entries === value.entries ? value : { kind: 'object', entries };
    }
    default:
      return value;
  }
}

/** `node` when `text` is what it holds, else a string node of `text`: an unchanged string is not copied. */
export function withText(node: JsonString, text: string): JsonString {
  return text === node.value ? node : { kind: 'string', value: text };
}

/** `items` mapped, or `items` itself when `map` gave back every item as it was. */
function mapShared<T>(items: readonly T[], map: (item: T) => T): readonly T[] {
  let mapped: T[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const next = map(item);
    if (mapped === undefined && next !== item) mapped = items.slice(0, i);
    mapped?.push(next);
  }
  return mapped ?? items;
}
