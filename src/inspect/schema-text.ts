// Which strings of a JSON Schema are prose and which decide what is valid. Prose (a schema's
// `title`, `description` and `$comment`) may be normalised before the agent reads it, as any
// description is; every other string (a property name, a `pattern`, an `enum` or `const` value,
// a `$ref`, a `format`, a `default` or an example, which the agent may copy as a value) would
// change what the schema accepts or suggests if rewritten, so it is only judged.

import { SUBSCHEMA, SUBSCHEMA_MAP } from '../schema/keywords.js';
import type { JsonValue } from '../types.js';

/** Keywords whose string value is prose about the schema it sits in. */
const PROSE = new Set(['title', 'description', '$comment']);

/**
 * Every string node of `schema` that is not prose, added to `fixed`. Keys are never rewritten
 * anywhere, so they are not collected here. The JSON reader bounds depth, so recursion is safe.
 */
export function collectSchemaValues(schema: JsonValue, fixed: Set<JsonValue>): void {
  if (schema.kind === 'array') {
    for (const item of schema.items) collectSchemaValues(item, fixed);
    return;
  }
  if (schema.kind !== 'object') {
    // A schema position holding a string is not a schema (a `dependencies` list entry, say): data.
    collectData(schema, fixed);
    return;
  }
  for (const [key, value] of schema.entries) {
    if (PROSE.has(key) && value.kind === 'string') continue;
    if (SUBSCHEMA.has(key)) collectSchemaValues(value, fixed);
    else if (SUBSCHEMA_MAP.has(key) && value.kind === 'object') for (const [, sub] of value.entries) collectSchemaValues(sub, fixed);
    else collectData(value, fixed);
  }
}

/** Every string node of a value that is data, not a schema. */
export function collectData(value: JsonValue, fixed: Set<JsonValue>): void {
  if (value.kind === 'string') fixed.add(value);
  else if (value.kind === 'array') for (const item of value.items) collectData(item, fixed);
  else if (value.kind === 'object') for (const [, item] of value.entries) collectData(item, fixed);
}
