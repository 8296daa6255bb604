// JSON Pointers (RFC 6901), for naming a place in a schema or in arguments in a message.

/** The pointer to member `key` (an object key or an array index) of the value at `pointer`. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
