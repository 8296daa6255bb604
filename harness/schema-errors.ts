import type { ErrorObject } from 'ajv';
import { didYouMean } from './nearest.js';

/**
 * Where a value is in a file a person wrote (a scenario, a profile, a baseline), as its author
 * wrote it: `steps[0].start.expect` for ajv's `/steps/0/start/expect`, a key that is not a plain
 * word quoted (`hosts["a.example"]`), `whole` (`the scenario`) for its top level.
 */
export function keyPath(instancePath: string, whole: string): string {
  if (instancePath === '') return whole;
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_][\w-]*$/.test(part) ? `${index === 0 ? '' : '.'}${part}` : `[${JSON.stringify(part)}]`))
    .join('');
}

/** A value as the message quotes it, cut short: an object in the wrong place may be large. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The keys an object schema names, for the nearest one to an unknown key. */
const keysOf = (schema: unknown): string[] => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});

/**
 * One schema error as a sentence saying where and what, and what to write instead where that is
 * known: the unknown key with the nearest allowed key (or, with none near, every allowed one), the
 * allowed values of an enum, the missing key. Needs errors of an ajv compiled with `verbose` (the
 * offending value and the schema around it).
 */
export function describeSchemaError(error: ErrorObject, whole: string): string {
  const where = keyPath(error.instancePath, whole);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = keysOf(error.parentSchema);
      const suggestion = didYouMean(key, allowed);
      return `${where}: unknown key ${shown(key)}${suggestion || (allowed.length > 0 ? `; allowed keys: ${allowed.join(', ')}` : '; no keys are allowed here')}`;
    }
    case 'required':
      return `${where}: missing key ${shown(params.missingProperty)}`;
    case 'enum': {
      const allowed = params.allowedValues as unknown[];
      const words = allowed.filter((value): value is string => typeof value === 'string');
      const suggestion = typeof error.data === 'string' ? didYouMean(error.data, words) : '';
      return `${where} is ${shown(error.data)}, not one of ${allowed.map(shown).join(', ')}${suggestion}`;
    }
    case 'const':
      return `${where} is ${shown(error.data)}, and can only be ${shown(params.allowedValue)}`;
    case 'pattern':
      return `${where} is ${shown(error.data)}, which does not match ${String(params.pattern)}`;
    case 'type':
      return `${where} is ${shown(error.data)}, and must be of type ${String(params.type)}`;
    default:
      return `${where} ${error.message ?? error.keyword}`;
  }
}

/** Every error of one validation, each said once (a failed branch of oneOf repeats its siblings'). */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, whole: string): string {
  return [...new Set((errors ?? []).map((error) => describeSchemaError(error, whole)))].join('; ');
}
