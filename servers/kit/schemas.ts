/**
 * Input-schema presets for the `schema.<tool>` knob: whole schemas, as data, that replace a tool's
 * own. Two families probe what a broker does with a schema it is asked to restrict or pin:
 *
 * - hiding soundness: every preset carries a `folder` property the operator will hide, and all
 *   but `with-folder` and `folder-nested` also name it in a keyword that must go with it (or a
 *   broker that hides only `properties.folder` leaves a schema no call can satisfy, or one that
 *   still asks for `folder`); `folder-respelt` names it a second time in another spelling
 *   (`Folder`), beside `folders`, another parameter that only shares its letters;
 * - self-containment: schemas that point outside themselves, each at the harness's canary
 *   listener (or a local file), so that a broker which fetches anything is caught; plus controls
 *   that only look similar and must be accepted; and references inside the schema that land on no
 *   schema of it (nothing, a value that is no schema, a cycle), which a validator cannot enforce.
 *
 * - parameter headers (MCP 2026-07-28's `x-mcp-header`): `header-region` annotates a `region`
 *   property as the spec allows, and each other `header-*` preset breaks one of the spec's
 *   constraints on an annotation, which makes the tool definition invalid.
 *
 * Besides, `deep-<N>` nests `properties` N levels deep, to probe a broker's depth bound.
 *
 * The kit itself never resolves or fetches any of these; it only writes them.
 */
import type { JsonObject } from './json-text.js';
import { ansiColoured, INJECTION, TITLE_INJECTION, withZeroWidth } from './payloads.js';
import type { Sized, SizeRange } from './sized.js';

export const SCHEMA_PRESETS = [
  'with-folder',
  'folder-in-anyof',
  'folder-in-if-then',
  'folder-in-dependent-required',
  'folder-in-defs',
  'folder-pattern-properties',
  'folder-nested',
  'folder-respelt',
  'ref-url',
  'ref-file',
  'ref-relative',
  'dynamic-ref-url',
  'id-url',
  'schema-url',
  'draft04-id',
  'ref-in-default',
  'ref-in-examples',
  'ref-local',
  'ref-missing',
  'ref-not-schema',
  'ref-cycle',
  'ref-dynamic-self',
  'ref-nested-missing',
  'ref-nested-defs',
  'dialect-2020',
  'not-object',
  'bad-pattern',
  'keywords',
  'prose-injection',
  'prose-zero-width',
  'enum-invisible',
  'prose-and-enum',
  'prose-ansi',
  'default-injection',
  'examples-injection',
  'const-injection',
  'enum-injection',
  'name-injection',
  'required-injection',
  'values-benign',
  'header-region',
  'header-crlf',
  'header-non-token',
  'header-duplicate',
  'header-number',
  'header-items',
  'header-oneof',
  'header-ref',
] as const;

export type SchemaPresetName = (typeof SCHEMA_PRESETS)[number];

/** Far past the inspection bound of 32, into depths that overflow a recursive walker's stack. */
export const SCHEMA_FAMILIES = { deep: { min: 1, max: 100_000 } } satisfies Record<string, SizeRange>;

export type SchemaPreset = SchemaPresetName | Sized<keyof typeof SCHEMA_FAMILIES>;

/** Where the canary listens unless told: the discard port, so even then only 127.0.0.1 is named. */
export const DEFAULT_CANARY_PORT = 9;

/** `path` on the canary listener: `http://127.0.0.1:<port>/<path>`. */
type CanaryUrl = (path: string) => string;

const withFolder = (): JsonObject => ({
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 }, text: { type: 'string' }, folder: { type: 'string' } },
  required: ['id', 'text', 'folder'],
  additionalProperties: false,
});

/** The self-containment base, with `query`'s own schema swapped for `query` when given. */
const withQuery = (query: JsonObject = { type: 'string' }): JsonObject => ({
  type: 'object',
  properties: { query },
  required: ['query'],
});

/** What the author of the reference presets means a query to be: a short string. */
const queryDefinition = (): JsonObject => ({ type: 'string', maxLength: 40 });
/** The parameter-header base: `query` and a `region`, whose schema is `region` when given. */
const withRegion = (region: JsonObject = { type: 'string', 'x-mcp-header': 'Region' }): JsonObject => ({
  type: 'object',
  properties: { query: { type: 'string' }, region },
  required: ['query'],
});

const BUILDERS: Record<SchemaPresetName, (canary: CanaryUrl) => JsonObject> = {
  'with-folder': withFolder,
  'folder-in-anyof': () => ({ ...withFolder(), anyOf: [{ required: ['folder'] }, { required: ['text'] }] }),
  'folder-in-if-then': () => ({
    ...withFolder(),
    if: { properties: { id: { const: 1 } } },
    then: { required: ['folder'] },
  }),
  'folder-in-dependent-required': () => ({ ...withFolder(), dependentRequired: { text: ['folder'] } }),
  'folder-in-defs': () => ({ ...withFolder(), $defs: { place: { properties: { folder: { type: 'string' } } } } }),
  'folder-pattern-properties': () => ({ ...withFolder(), patternProperties: { '^f': { type: 'string' } } }),
  // A property of the same name one level down is a different parameter: hiding it would be wrong.
  'folder-nested': () => {
    const schema = withFolder();
    const meta = { type: 'object', properties: { folder: { type: 'string' } } };
    return { ...schema, properties: { ...(schema['properties'] as JsonObject), meta } };
  },
  // One parameter under a second spelling an agent reads as the same name, and a different one.
  'folder-respelt': () => {
    const schema = withFolder();
    const properties = { ...(schema['properties'] as JsonObject), Folder: { type: 'string' }, folders: { type: 'string' } };
    return { ...schema, properties, required: ['id', 'text'] };
  },
  'ref-url': (canary) => withQuery({ $ref: canary('query.json') }),
  'ref-file': () => withQuery({ $ref: 'file:///etc/passwd' }),
  'ref-relative': () => withQuery({ $ref: 'query.json#/q' }),
  'dynamic-ref-url': (canary) => withQuery({ $dynamicRef: canary('d.json#node') }),
  'id-url': (canary) => ({ $id: canary('root.json'), ...withQuery() }),
  'schema-url': (canary) => ({ $schema: canary('meta.json'), ...withQuery() }),
  'draft04-id': (canary) => ({ $schema: 'http://json-schema.org/draft-04/schema#', id: canary('d4.json'), ...withQuery() }),
  // `default` and `examples` are annotations: a `$ref` inside them is data, never to be followed.
  'ref-in-default': (canary) => withQuery({ type: 'string', default: { $ref: canary('default.json') } }),
  'ref-in-examples': (canary) => withQuery({ type: 'string', examples: [{ $ref: canary('ex.json') }] }),
  'ref-local': () => ({ ...withQuery({ $ref: '#/$defs/q' }), $defs: { q: { type: 'string' } } }),
  // The author's definition says what a query is, and the reference misses it: it names a
  // definition that is not there, the definition's `type` (a string, not a schema), or a
  // definition that is only a reference back to the first.
  'ref-missing': () => ({ ...withQuery({ $ref: '#/$defs/missing' }), $defs: { q: queryDefinition() } }),
  'ref-not-schema': () => ({ ...withQuery({ $ref: '#/$defs/q/type' }), $defs: { q: queryDefinition() } }),
  'ref-cycle': () => ({ ...withQuery({ $ref: '#/$defs/a' }), $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } }),
  // A dynamic reference to its own anchor: Ajv compiles it, and its validator never returns.
  'ref-dynamic-self': () => withQuery({ $dynamicAnchor: 'q', $dynamicRef: '#q' }),
  // The reference that resolves to nothing sits in a definition nested in another: a broker that
  // looks only at the top level's definitions does not see it.
  'ref-nested-missing': () => ({
    ...withQuery({ $ref: '#/$defs/outer/$defs/inner' }),
    $defs: { outer: { $defs: { inner: { $ref: '#/$defs/outer/$defs/missing' } } } },
  }),
  'ref-nested-defs': () => ({ ...withQuery({ $ref: '#/$defs/outer/$defs/inner' }), $defs: { outer: { $defs: { inner: queryDefinition() } } } }),
  'dialect-2020': () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...withQuery() }),
  'not-object': () => ({ type: 'string' }),
  // An unbalanced group: no regular-expression engine compiles it, so no validator can enforce it.
  'bad-pattern': () => withQuery({ type: 'string', pattern: '(unclosed' }),
  // Strings inside a schema the agent reads: a property's prose carrying an injection or
  // invisible characters, and an enum value (which decides validity) carrying one.
  'prose-injection': () => withQuery({ type: 'string', description: `Words to look for. ${INJECTION}` }),
  'prose-zero-width': () => withQuery({ type: 'string', description: withZeroWidth('Words to look for in your notes.') }),
  'enum-invisible': () => ({ ...withQuery(), properties: { query: { type: 'string' }, scope: { enum: ['notes', 'arch\u2064ive'] } } }),
  'prose-and-enum': () => ({
    ...withQuery(),
    properties: { query: { type: 'string', title: 'Query', description: 'Words to look for in your notes.' }, scope: { enum: ['notes', 'archive'] } },
  }),
  // Terminal sequences in a property's title and description (prose, which a broker may rewrite).
  'prose-ansi': () => withQuery({ type: 'string', title: ansiColoured('Query'), description: ansiColoured('Words to look for in your notes.') }),
  // The injection in each kind of schema string that is not prose (schema-text.ts in the
  // reference): values that decide or suggest what is valid, and the keys that name parameters.
  // A model reads them as surely as a description, and may copy a default or an example.
  'default-injection': () => withQuery({ type: 'string', default: INJECTION }),
  'examples-injection': () => withQuery({ type: 'string', examples: ['budget', INJECTION] }),
  'const-injection': () => ({ ...withQuery(), properties: { query: { type: 'string' }, mode: { const: INJECTION } } }),
  'enum-injection': () => ({ ...withQuery(), properties: { query: { type: 'string' }, scope: { enum: ['notes', INJECTION] } } }),
  'name-injection': () => ({ ...withQuery(), properties: { query: { type: 'string' }, [TITLE_INJECTION]: { type: 'boolean' } } }),
  // A required name no property declares: valid JSON Schema, and only text to whoever reads it.
  'required-injection': () => ({ ...withQuery(), required: ['query', INJECTION] }),
  // The control: the same kinds of string, holding words a blunt pattern would take for an
  // injection ("ignore", "previous", "system", "override") in ordinary use.
  'values-benign': () => ({
    type: 'object',
    properties: {
      query: { type: 'string', examples: ['Ignore whitespace when comparing', 'previous budget'] },
      order: { enum: ['asc', 'desc'], default: 'asc' },
      locale: { type: 'string', default: 'en-US' },
      ignore_case: { type: 'boolean', default: true, description: 'Ignore the case of letters, as in the previous version.' },
      source: { const: 'system' },
      override_folder: { type: 'string', title: 'Override folder' },
    },
    required: ['query'],
  }),
  'header-region': () => withRegion(),
  'header-crlf': () => withRegion({ type: 'string', 'x-mcp-header': 'Region\r\nX-Injected: 1' }),
  'header-non-token': () => withRegion({ type: 'string', 'x-mcp-header': 'Region Name' }),
  'header-duplicate': () => {
    const schema = withRegion();
    return { ...schema, properties: { ...(schema['properties'] as JsonObject), zone: { type: 'string', 'x-mcp-header': 'region' } } };
  },
  'header-number': () => withRegion({ type: 'number', 'x-mcp-header': 'Region' }),
  'header-items': () => withRegion({ type: 'array', items: { type: 'string', 'x-mcp-header': 'Region' } }),
  'header-oneof': () => withRegion({ oneOf: [{ type: 'string', 'x-mcp-header': 'Region' }, { type: 'integer' }] }),
  'header-ref': () => ({ ...withRegion({ $ref: '#/$defs/region' }), $defs: { region: { type: 'string', 'x-mcp-header': 'Region' } } }),
  keywords: () => ({
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1, maximum: 1000 },
      text: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^<>]*$', not: { const: 'DELETE ALL' } },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
      priority: { enum: ['low', 'normal', 'high'] },
      kind: { const: 'note' },
      weight: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 5, multipleOf: 0.5 },
    },
    required: ['id', 'text', 'kind'],
    dependentRequired: { priority: ['tags'] },
    additionalProperties: false,
  }),
};

/** A fresh copy of the preset's schema, its URLs pointing at the canary on `canaryPort`. */
export function presetSchema(preset: SchemaPreset, canaryPort: number): JsonObject {
  if (typeof preset !== 'string') return deepSchema(preset.n);
  return BUILDERS[preset]((path) => `http://127.0.0.1:${canaryPort}/${path}`);
}

/** `properties` nested `levels` deep: each level's only property `a` is the next level, the last a string. */
function deepSchema(levels: number): JsonObject {
  let schema: JsonObject = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}
