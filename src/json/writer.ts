// Writes a value back as JSON text in the order it was received, with every number literal as it
// was written. This is how the broker forwards what it did not decide on (schemas, arguments,
// results): nothing is lost to a float64 and nothing is reordered.

import { quoteString } from './escape.js';
import type { JsonValue } from './tree.js';

export function writeJson(value: JsonValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'number':
      return value.text;
    case 'string':
      return quoteString(value.value);
    case 'array':
      return `[${value.items.map(writeJson).join(',')}]`;
    case 'object':
      return `{${value.entries.map(([k, v]) => `${quoteString(k)}:${writeJson(v)}`).join(',')}}`;
  }
}
