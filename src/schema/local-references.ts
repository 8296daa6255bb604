// Whether every reference inside an input schema lands on a schema of the same document. A `$ref`
// that names nothing, or names a place that holds no schema (a `description`, a `type`, an `enum`,
// the `properties` object itself), or a chain of references that comes back to where it began,
// leaves a validator to guess: Ajv refuses some of these, compiles others as the empty schema
// (anything valid) and overflows its stack on a cycle. What the operator reviewed then is not what
// is enforced, so the tool is refused instead. Only schema positions are walked: a `$ref` inside
// `default` or `examples` is data. References outside the document are self-contained's
// (references.ts) and are not looked at here.

import { childPointer, resolvePointer } from '../json/pointer.js';
import { stringValue } from '../json/tree.js';
import type { JsonObject, JsonValue } from '../types.js';
import { SUBSCHEMA, SUBSCHEMA_MAP } from './keywords.js';

const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];
/** Keywords naming a plain-name fragment a reference may use: `#name`. */
const ANCHORS = ['$anchor', '$dynamicAnchor'];

const KIND_NAMES: Record<JsonValue['kind'], string> = {
  null: 'a null',
  bool: 'a boolean',
  number: 'a number',
  string: 'a string',
  array: 'an array',
  object: 'an object',
};

interface Reference {
  /** The pointer of the schema holding the reference. */
  readonly from: string;
  readonly keyword: string;
  readonly text: string;
}

/** What the walk found: every schema by pointer, every plain-name anchor, every local reference. */
interface Document {
  readonly schemas: Map<string, JsonValue>;
  readonly anchors: Map<string, string>;
  readonly references: Reference[];
}

/** Why a reference of the schema does not land on one of its schemas (naming the first), or null. */
export function unresolvedReference(schema: JsonObject): string | null {
  const document: Document = { schemas: new Map(), anchors: new Map(), references: [] };
  collect(schema, '', document);
  for (const reference of document.references) {
    const problem = landing(schema, reference, document) ?? cycle(reference, document);
    if (problem !== null) return `${reference.keyword} ${JSON.stringify(reference.text)} at ${reference.from === '' ? '/' : reference.from} ${problem}`;
  }
  return null;
}

function collect(value: JsonValue, at: string, document: Document): void {
  if (value.kind !== 'object' && value.kind !== 'bool') return;
  document.schemas.set(at, value);
  if (value.kind === 'bool') return;
  for (const [key, child] of value.entries) {
    const here = childPointer(at, key);
    const text = stringValue(child);
    if (text !== undefined && REFERENCES.includes(key) && text.startsWith('#')) document.references.push({ from: at, keyword: key, text });
    if (text !== undefined && ANCHORS.includes(key)) document.anchors.set(text, at);
    // Before 2019-09 a plain-name fragment was written as an `$id` (or draft-04 `id`) of `#name`.
    if (text !== undefined && (key === '$id' || key === 'id') && text.startsWith('#') && text.length > 1) document.anchors.set(text.slice(1), at);
    if (SUBSCHEMA.has(key) && child.kind === 'array') child.items.forEach((item, i) => collect(item, childPointer(here, i), document));
    else if (SUBSCHEMA.has(key)) collect(child, here, document);
    else if (SUBSCHEMA_MAP.has(key) && child.kind === 'object') for (const [name, sub] of child.entries) collect(sub, childPointer(here, name), document);
  }
}

/** The pointer of the schema a local reference names, or undefined when it names none. */
function target(text: string, { anchors }: Document): string | undefined {
  let fragment: string;
  try {
    fragment = decodeURIComponent(text.slice(1));
  } catch {
    return undefined;
  }
  return fragment === '' || fragment.startsWith('/') ? fragment : anchors.get(fragment);
}

/** Why the reference lands on no schema, or null when it does. */
function landing(root: JsonObject, { text }: Reference, document: Document): string | null {
  const pointer = target(text, document);
  if (pointer !== undefined && document.schemas.has(pointer)) return null;
  const there = pointer === undefined ? undefined : resolvePointer(root, pointer);
  return there === undefined ? 'resolves to nothing in the schema' : `names ${KIND_NAMES[there.kind]} that is not a schema`;
}

/**
 * Why following the reference, and the reference each schema it lands on holds in turn, comes
 * back to a schema already passed: nothing is ever checked, and a validator that follows it never
 * stops. Null when the chain ends.
 */
function cycle(reference: Reference, document: Document): string | null {
  const passed = new Set([reference.from]);
  let next: string | undefined = target(reference.text, document);
  while (next !== undefined) {
    if (passed.has(next)) return `leads back to ${next === '' ? '/' : next} through references alone`;
    passed.add(next);
    const onward: Reference | undefined = document.references.find((other) => other.from === next);
    next = onward === undefined ? undefined : target(onward.text, document);
  }
  return null;
}
