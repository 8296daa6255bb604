// The canonical text of a JSON value: what a pin hashes. Keys are sorted by UTF-16 code units,
// there is no insignificant whitespace, strings are escaped minimally and numbers are written as
// their exact decimal value, so re-serialising the same value any other way cannot change a hash.

import { canonicalNumber } from './number.js';
import { type WriteStyle, writeJsonIn } from './writer.js';
import type { JsonValue } from '../types.js';

const CANONICAL: WriteStyle = {
  number: canonicalNumber,
  // The default sort compares UTF-16 code units, which is the order RFC 8785 asks for.
  members: (entries) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
};

export function canonicalJson(value: JsonValue): string {
  return writeJsonIn(CANONICAL, value);
}
