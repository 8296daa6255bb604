// The validator for a tool's restricted input schema: JSON Schema 2020-12, as Ajv implements it.
// Nothing a schema names is ever fetched or read: the Ajv instances have no loadSchema, and a
// reference that leaves the schema (possible only with the self-contained guard disabled) is
// compiled as the empty schema, which is what trusting an unreviewed document comes to.

import { createRequire } from 'node:module';
import type ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { object } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import type { JsonObject, JsonValue, Compiled } from '../types.js';
import validateAgainstMeta from './meta-2020.generated.js';

const OPTIONS = {
  strict: false,
  allErrors: true,
  // A name like "constructor" or "toString" must be the instance's own, not Object.prototype's.
  ownProperties: true,
} as const;

// Checking a schema against the 2020-12 meta-schema is the slow part of a fresh Ajv instance
// (compiling the meta-schema), so it is done by the code Ajv generates for it, committed
// (meta-2020.generated.ts, scripts/generate-meta-validator.mjs), and no instance compiles it. A
// schema that names no document of its own ($id, $anchor or $dynamicAnchor anywhere) compiles in
// a shared instance that keeps nothing once it is done (addUsedSchema off, the schema removed
// after), so nothing of it can resolve another's reference; any other schema compiles in an
// instance of its own, so its $id can neither collide with another's nor resolve into one.
type Ajv2020 = InstanceType<typeof ajv2020.default>;

interface Validators {
  readonly fresh: (options: Options) => Ajv2020;
  readonly anonymous: Ajv2020;
}
let validators: Validators | undefined;

/**
 * Loads Ajv and builds the shared instances, once. Loading Ajv is a good part of the broker's
 * start, so startup.ts calls this while the server it just spawned starts up; the first compile
 * calls it otherwise.
 */
export function loadValidators(): Validators {
  if (validators !== undefined) return validators;
  const { default: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as { default: typeof ajv2020.default };
  const fresh = (options: Options): Ajv2020 => new Ajv(options);
  validators = { fresh, anonymous: fresh({ ...OPTIONS, validateSchema: false, meta: false, addUsedSchema: false }) };
  return validators;
}

/** More external references than this, each standing in for a document, is not a schema. */
const MAX_STAND_INS = 64;

/** Keys that make a (sub)schema a document another reference can resolve to. */
const DOCUMENT_KEYS: ReadonlySet<string> = new Set(['$id', '$anchor', '$dynamicAnchor']);

/**
 * Compiled schemas by their text as received (less `$schema`): servers list many tools with the
 * same schema, and a validator is a function of its schema's text alone. Bounded, since a server
 * that keeps changing its schemas must not grow the broker without end.
 */
const compiledByText = new Map<string, Compiled>();
const MAX_CACHED = 4096;

export function compileSchema(schema: JsonObject): Compiled {
  if (namesProto(schema)) return { ok: false, error: 'it names "__proto__", which the validator skips' };
  // The validator is 2020-12 whatever dialect `$schema` names; the name is only a label.
  const labelFree = object(schema.entries.filter(([key]) => key !== '$schema'));
  const text = writeJson(labelFree);
  const cached = compiledByText.get(text);
  if (cached !== undefined) return cached;
  const compiled = compileUncached(labelFree);
  if (compiledByText.size >= MAX_CACHED) compiledByText.clear();
  compiledByText.set(text, compiled);
  return compiled;
}

function compileUncached(schema: JsonObject): Compiled {
  const { fresh, anonymous } = loadValidators();
  const unlabelled = toJs(schema) as Record<string, unknown>;
  if (!validateAgainstMeta(unlabelled)) {
    return { ok: false, error: `not a valid 2020-12 schema: ${anonymous.errorsText(validateAgainstMeta.errors)}` };
  }
  if (!namesDocument(schema)) {
    try {
      return validatorOf(anonymous.compile(unlabelled));
    } catch (err) {
      // Only a reference to a document elsewhere needs an instance of its own, to stand one in.
      const missing = missingSchema(err);
      if (missing === undefined || missing === '') return { ok: false, error: (err as Error).message };
    } finally {
      anonymous.removeSchema(unlabelled);
    }
  }
  const ajv = fresh({ ...OPTIONS, validateSchema: false, meta: false });
  const standIns = new Set<string>();
  for (;;) {
    try {
      return validatorOf(ajv.compile(unlabelled));
    } catch (err) {
      const failed: Compiled = { ok: false, error: (err as Error).message };
      const missing = missingSchema(err);
      // A part missing from a document that is there (the schema itself, "" without an $id, or
      // one already stood in) is a broken schema, not an outside reference.
      if (missing === undefined || missing === '' || standIns.has(missing) || standIns.size >= MAX_STAND_INS) return failed;
      try {
        ajv.addSchema({}, missing);
      } catch {
        return failed; // the schema's own $id: Ajv already holds it
      }
      standIns.add(missing);
    }
  }
}

function validatorOf(validate: ValidateFunction): Compiled {
  return { ok: true, validate: (args) => (validate(toJs(args)) ? [] : describe(validate)) };
}

/** Whether any (sub)schema names a document: a key that gives it an id or an anchor. */
function namesDocument(value: JsonValue): boolean {
  if (value.kind === 'array') return value.items.some(namesDocument);
  if (value.kind !== 'object') return false;
  return value.entries.some(([key, item]) => DOCUMENT_KEYS.has(key) || namesDocument(item));
}

/** Ajv leaves a property named "__proto__" unchecked, so a schema naming one cannot be enforced. */
function namesProto(value: JsonValue): boolean {
  if (value.kind === 'array') return value.items.some(namesProto);
  if (value.kind !== 'object') return false;
  return value.entries.some(([key, item]) => key === '__proto__' || namesProto(item));
}

/** The document a missing-reference error names, read without depending on Ajv's class export. */
function missingSchema(err: unknown): string | undefined {
  const missing = (err as { missingSchema?: unknown }).missingSchema;
  return typeof missing === 'string' ? missing : undefined;
}

function describe(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath === '' ? '/' : e.instancePath} ${e.message ?? 'is invalid'}`);
}

/**
 * A parsed value as the plain JS value Ajv works on. Number literals become float64s (the
 * input-valid guard refuses arguments whose literals a float64 does not hold exactly); every key
 * becomes an own property, "__proto__" included.
 */
export function toJs(value: JsonValue): unknown {
  switch (value.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return value.value;
    case 'number':
      return Number(value.text);
    case 'array':
      return value.items.map(toJs);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, item] of value.entries) {
        Object.defineProperty(out, key, { value: toJs(item), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
  }
}
