// JSON Pointers (RFC 6901): naming a place in a schema or in arguments in a message, and reading
// the value an effect contract names.

import { member } from './tree.js';
import type { JsonValue } from '../types.js';

/** The pointer to member `key` (an object key or an array index) of the value at `pointer`. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The reference tokens of a pointer, unescaped; undefined when it is not a valid pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/');
  // `~` may only escape `0` or `1`.
  if (tokens.some((token) => /~(?![01])/.test(token))) return undefined;
  return tokens.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value `pointer` names in `value`, or undefined when there is none. */
export function resolvePointer(value: JsonValue, pointer: string): JsonValue | undefined {
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return undefined;
  let at: JsonValue | undefined = value;
  for (const token of tokens) {
    if (at?.kind === 'object') at = member(at, token);
    // An array index is digits without a leading zero; `-` names no element.
    else if (at?.kind === 'array' && /^(?:0|[1-9][0-9]*)$/.test(token)) at = at.items[Number(token)];
    else return undefined;
  }
  return at;
}
