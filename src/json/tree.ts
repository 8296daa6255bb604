// The parsed form of a JSON text. Number literals stay text, because every security decision
// must see the value the sender wrote, not what a float64 can hold. Object entries stay in the
// order they were received, because forwarding must not reorder what it did not decide on.

export type JsonValue = JsonNull | JsonBool | JsonNumber | JsonString | JsonArray | JsonObject;

export interface JsonNull {
  readonly kind: 'null';
}
export interface JsonBool {
  readonly kind: 'bool';
  readonly value: boolean;
}
export interface JsonNumber {
  readonly kind: 'number';
  /** The literal exactly as written, e.g. `9007199254740993` or `10e-1`. */
  readonly text: string;
}
export interface JsonString {
  readonly kind: 'string';
  readonly value: string;
}
export interface JsonArray {
  readonly kind: 'array';
  readonly items: readonly JsonValue[];
}
export interface JsonObject {
  readonly kind: 'object';
  /** Keys are unique: the reader refuses a duplicate instead of choosing one. */
  readonly entries: readonly (readonly [string, JsonValue])[];
}

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

/**
 * A value the broker chose itself (never one a peer sent), written as a plain JS value. Numbers
 * must be safe integers so that converting them to a literal loses nothing.
 */
export type Plain = null | boolean | number | string | readonly Plain[] | { readonly [key: string]: Plain };

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
function isPlainArray(value: Plain): value is readonly Plain[] {
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
