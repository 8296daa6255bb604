// The canonical text of a JSON value: what a pin hashes. Keys are sorted by UTF-16 code units,
// there is no insignificant whitespace, strings are escaped minimally and numbers are written as
// their exact decimal value, so re-serialising the same value any other way cannot change a hash.

import { quoteString } from './escape.js';
import { canonicalNumber } from './number.js';
import type { JsonValue } from './tree.js';

export function canonicalJson(value: JsonValue): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'number':
      return canonicalNumber(value.text);
    case 'string':
      return quoteString(value.value);
    case 'array':
      return `[${value.items.map(canonicalJson).join(',')}]`;
    case 'object': {
      // The default sort compares UTF-16 code units, which is the order RFC 8785 asks for.
      const sorted = [...value.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${sorted.map(([k, v]) => `${quoteString(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
  }
}
