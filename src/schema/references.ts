// Whether an input schema is self-contained: it must not name anything outside itself. A reference
// to a URL, a file or a relative path is an invitation to fetch or read something the server
// chose, and a validator that follows it validates against whatever answers. The whole tree is
// walked, `default`, `examples`, `const` and `enum` values included, because a naive tool that
// dereferences a schema does not know which keywords hold data. Nothing named is ever fetched.

import { childPointer } from '../json/pointer.js';
import { member, stringValue } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';

const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];
const DRAFT_04 = 'http://json-schema.org/draft-04/schema';

/** The official dialect URIs, spelled as their specifications write them, with or without `#`. */
const WELL_KNOWN_DIALECTS: ReadonlySet<string> = new Set(
  [
    'https://json-schema.org/draft/2020-12/schema',
    'https://json-schema.org/draft/2019-09/schema',
    'http://json-schema.org/draft-07/schema',
    'http://json-schema.org/draft-06/schema',
    DRAFT_04,
  ].flatMap((uri) => [uri, `${uri}#`]),
);

/** Under draft-04 the base URI keyword is `id`; one naming a scheme or a host points outside. */
const SCHEME_OR_HOST = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|\/\/)/;

/** Why the schema refers outside itself (naming the first such place), or null when it does not. */
export function externalReference(schema: JsonObject): string | null {
  const dialect = stringValue(member(schema, '$schema'));
  const draft04 = dialect === DRAFT_04 || dialect === `${DRAFT_04}#`;
  return walk(schema, '', draft04);
}

function walk(value: JsonValue, pointer: string, draft04: boolean): string | null {
  if (value.kind === 'array') {
    for (const [i, item] of value.items.entries()) {
      const found = walk(item, childPointer(pointer, i), draft04);
      if (found !== null) return found;
    }
    return null;
  }
  if (value.kind !== 'object') return null;
  for (const [key, child] of value.entries) {
    const at = childPointer(pointer, key);
    if (child.kind === 'string') {
      const problem = keywordProblem(key, child.value, draft04);
      if (problem !== null) return `${problem} at ${at}`;
    }
    const found = walk(child, at, draft04);
    if (found !== null) return found;
  }
  return null;
}

function keywordProblem(key: string, text: string, draft04: boolean): string | null {
  const quoted = JSON.stringify(text);
  if (REFERENCES.includes(key) && !text.startsWith('#')) return `${key} ${quoted} points outside the schema`;
  if (key === '$id' && !text.startsWith('#') && !WELL_KNOWN_DIALECTS.has(text)) return `$id ${quoted} is not a fragment`;
  if (key === '$schema' && !WELL_KNOWN_DIALECTS.has(text)) return `$schema ${quoted} is not a well-known dialect`;
  if (draft04 && key === 'id' && SCHEME_OR_HOST.test(text)) return `draft-04 id ${quoted} names a scheme or a host`;
  return null;
}
