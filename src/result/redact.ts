// The values the operator placed in the server's environment (a token for its backend, an API
// key) are lent to the server, never meant for the agent: each exact occurrence of one in what the
// server answers is replaced by a marker naming the variable, so the rest of the answer stays.

import { object, type JsonValue } from '../json/tree.js';
import { normalise } from '../inspect/normalise.js';

/**
 * Values shorter than this are left alone: they cannot be told apart from ordinary words (a log
 * level, a region, a port), and no credential worth the name is that short.
 */
export const MIN_REDACTED_CHARS = 8;

export type Redact = (text: string) => string;

/**
 * Replaces every occurrence of each value, as written and as inspection normalises it, with
 * `[redacted: NAME]`; the longest values first, so a value inside another leaves no piece of it.
 */
export function redactor(env: ReadonlyMap<string, string>): Redact | undefined {
  // A session's environment is fixed, and every result and error asks for its redactor: built once.
  if (built.has(env)) return built.get(env);
  const secrets = [...env]
    .filter(([, value]) => value.length >= MIN_REDACTED_CHARS)
    .flatMap(([name, value]) => [...new Set([value, normalise(value)])].map((form) => [name, form] as const))
    .sort((a, b) => b[1].length - a[1].length);
  const redact: Redact | undefined =
    secrets.length === 0 ? undefined : (text) => secrets.reduce((out, [name, value]) => out.split(value).join(`[redacted: ${name}]`), text);
  built.set(env, redact);
  return redact;
}

const built = new WeakMap<ReadonlyMap<string, string>, Redact | undefined>();

/** Every string and key of a value, redacted. The JSON reader bounds depth, so recursion is safe. */
export function redactValue(value: JsonValue, redact: Redact): JsonValue {
  switch (value.kind) {
    case 'string': {
      const text = redact(value.value);
      return text === value.value ? value : { kind: 'string', value: text };
    }
    case 'array':
      return { kind: 'array', items: value.items.map((item) => redactValue(item, redact)) };
    case 'object':
      return object(value.entries.map(([key, item]) => [redact(key), redactValue(item, redact)] as const));
    default:
      return value;
  }
}
