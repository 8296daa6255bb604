import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';

/**
 * The harness's own 2020-12 validator, used to check what it generates. It never loads anything
 * a schema names: `loadSchema` is absent, so an outside reference is a compile error, not a fetch.
 */
const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateFormats: false });

export interface Verdict {
  valid: boolean;
  errors: ErrorObject[];
}

export function validate(schema: object, instance: unknown): Verdict {
  const check = ajv.compile(schema);
  const valid = check(instance);
  return { valid: Boolean(valid), errors: check.errors ?? [] };
}
