import { generateSync } from 'json-schema-faker';
import type { BreakableKeyword, GeneratedArguments } from '../scenario/types.js';
import { validate } from './validator.js';

type Schema = Record<string, unknown>;
type Instance = Record<string, unknown>;

/** Arguments the harness could not make from the schema it was given: the harness's problem. */
export class GenerationError extends Error {}

/** Seeds tried in turn: json-schema-faker does not promise valid output, so each is re-checked. */
const ATTEMPTS = 20;

/** A valid instance of the schema, made with json-schema-faker from `seed` and re-validated. */
export function validArguments(schema: Schema, seed: number): Instance {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = generateSync(schema as never, { seed: seed + attempt, alwaysFakeOptionals: true }) as Instance;
    if (candidate && typeof candidate === 'object' && validate(schema, candidate).valid) return candidate;
  }
  throw new GenerationError(`json-schema-faker made no valid instance in ${ATTEMPTS} seeds from ${seed}`);
}

const properties = (schema: Schema) => (schema.properties ?? {}) as Record<string, Schema>;

/** Values of another JSON type than the one a property declares. */
const WRONG_TYPE: Record<string, unknown> = { string: 12345, integer: 'not a number', number: 'not a number', boolean: 'no', array: 'not an array', object: 'not an object' };

/**
 * Breaks one keyword of a valid instance: each mutation changes one value so that exactly the
 * named keyword fails. Returns undefined when the schema has no top-level use of the keyword.
 */
function mutate(schema: Schema, valid: Instance, keyword: BreakableKeyword): Instance | undefined {
  const props = Object.entries(properties(schema));
  const withKeyword = props.find(([, p]) => p[keyword] !== undefined);
  const change = (name: string, value: unknown): Instance => ({ ...valid, [name]: value });
  const without = (name: string | undefined): Instance | undefined => {
    if (name === undefined) return undefined;
    const { [name]: _dropped, ...rest } = valid;
    return rest;
  };
  switch (keyword) {
    case 'required':
      return without(((schema.required ?? []) as string[])[0]);
    case 'dependentRequired': {
      // The first property that requires others, present in the instance, keeps its value; the
      // first property it requires goes.
      const [trigger, needs] = Object.entries((schema.dependentRequired ?? {}) as Record<string, string[]>)[0] ?? [];
      return trigger !== undefined && trigger in valid ? without(needs?.[0]) : undefined;
    }
    case 'additionalProperties':
      return schema.additionalProperties === false ? { ...valid, gauntlet_unexpected: 'extra' } : undefined;
    case 'type': {
      const typed = props.find(([, p]) => typeof p.type === 'string' && String(p.type) in WRONG_TYPE);
      return typed ? change(typed[0], WRONG_TYPE[String(typed[1].type)]) : undefined;
    }
    default:
      break;
  }
  if (!withKeyword) return undefined;
  const [name, prop] = withKeyword;
  const bound = prop[keyword];
  switch (keyword) {
    case 'minimum':
      return change(name, Number(bound) - 1);
    case 'maximum':
      return change(name, Number(bound) + 1);
    case 'minLength':
      return Number(bound) > 0 ? change(name, 'a'.repeat(Number(bound) - 1)) : undefined;
    case 'maxLength':
      return change(name, 'a'.repeat(Number(bound) + 1));
    case 'pattern': {
      const pattern = new RegExp(String(bound), 'u');
      const breaking = ['<>', '', ' ', '\n', '0', 'a b', '#!'].find((s) => !pattern.test(s));
      return breaking === undefined ? undefined : change(name, breaking);
    }
    case 'enum':
      return change(name, 'gauntlet-not-in-enum');
    case 'const':
      return change(name, 'gauntlet-not-the-const');
    case 'maxItems':
      return change(name, Array.from({ length: Number(bound) + 1 }, (_, i) => `item-${i}`));
    case 'uniqueItems':
      return bound === true ? change(name, ['same', 'same']) : undefined;
    // An exclusive bound is broken by the bound itself.
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return change(name, Number(bound));
    // Half a step off the valid value: within any range the value already satisfied, one step wide.
    case 'multipleOf':
      return change(name, Number(valid[name]) + Number(bound) / 2);
    case 'minItems':
      return Number(bound) > 0 ? change(name, Array.from({ length: Number(bound) - 1 }, (_, i) => `item-${i}`)) : undefined;
    case 'not': {
      const forbidden = bound as Schema;
      return 'const' in forbidden ? change(name, forbidden.const) : undefined;
    }
    default:
      return undefined;
  }
}

/** A valid instance with one keyword broken, checked to fail validation on that keyword. */
export function brokenArguments(schema: Schema, keyword: BreakableKeyword, seed: number): Instance {
  const mutant = mutate(schema, validArguments(schema, seed), keyword);
  if (!mutant) throw new GenerationError(`the schema has no top-level use of ${keyword} to break`);
  const verdict = validate(schema, mutant);
  if (verdict.valid || !verdict.errors.some((e) => e.keyword === keyword)) {
    throw new GenerationError(`breaking ${keyword} did not fail on ${keyword}: ${JSON.stringify(verdict.errors.map((e) => e.keyword))}`);
  }
  return mutant;
}

export function generateArguments(schema: Schema, how: GeneratedArguments): Instance {
  const seed = how.seed ?? 1;
  return 'valid' in how ? validArguments(schema, seed) : brokenArguments(schema, how.break, seed);
}
