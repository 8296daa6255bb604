// Which JSON Schema keywords hold schemas: what a walker over a schema's subschemas follows, and
// what it leaves alone as data (`default`, `examples`, `const`, `enum`, prose, unknown keywords).

/** Keywords whose value is one subschema, or an array of them. */
export const SUBSCHEMA: ReadonlySet<string> = new Set([
  'not', 'if', 'then', 'else', 'items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames',
  'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'prefixItems', 'allOf', 'anyOf', 'oneOf',
]);

/** Keywords whose value is an object of subschemas, by name. */
export const SUBSCHEMA_MAP: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
