// Strict reading of the operator's JSON files: every object names the keys it may hold, so a
// misspelled field is an error instead of a silently ignored setting.

import { ConfigError } from '../errors.js';
import { canonicalNumber } from '../json/number.js';
import { member } from '../json/tree.js';
import { parseRfc3339 } from './time.js';
import type { JsonObject, JsonValue } from '../types.js';

export class Fields {
  readonly object: JsonObject;

  /** `where` names the object in messages, e.g. `config server`. */
  constructor(
    value: JsonValue | undefined,
    readonly where: string,
    allowed: readonly string[],
  ) {
    if (value?.kind !== 'object') throw new ConfigError(`${where} must be an object`);
    for (const [key] of value.entries) {
      if (!allowed.includes(key)) throw new ConfigError(`${where} has an unknown field ${JSON.stringify(key)}`);
    }
    this.object = value;
  }

  get(key: string): JsonValue | undefined {
    return member(this.object, key);
  }

  fail(key: string, expectation: string): never {
    throw new ConfigError(`${this.where}.${key} ${expectation}`);
  }

  required<T>(key: string, read: (fields: Fields, key: string) => T | undefined): T {
    const value = read(this, key);
    if (value === undefined) this.fail(key, 'is required');
    return value;
  }

  string(key: string): string | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (value.kind !== 'string') this.fail(key, 'must be a string');
    return value.value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (value.kind !== 'bool') this.fail(key, 'must be true or false');
    return value.value;
  }

  /** An integer in [min, max], read from the literal's exact value. */
  integer(key: string, min: number, max: number): number | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    const text = value.kind === 'number' ? canonicalNumber(value.text) : '';
    const n = /^-?\d{1,16}$/.test(text) ? Number(text) : NaN;
    if (!(n >= min && n <= max)) this.fail(key, `must be an integer from ${min} to ${max}`);
    return n;
  }

  /** The entries of an object-valued field, in the file's order. */
  entries(key: string): readonly (readonly [string, JsonValue])[] | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (value.kind !== 'object') this.fail(key, 'must be an object');
    return value.entries;
  }

  /** The items of an array-valued field. */
  array(key: string, expectation = 'must be an array'): readonly JsonValue[] | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (value.kind !== 'array') this.fail(key, expectation);
    return value.items;
  }

  stringArray(key: string): string[] | undefined {
    const items = this.array(key, 'must be an array of strings');
    if (items === undefined) return undefined;
    return items.map((item) => (item.kind === 'string' ? item.value : this.fail(key, 'must be an array of strings')));
  }

  /** An RFC 3339 date-time, as milliseconds since the epoch. */
  instant(key: string): number | undefined {
    const text = this.string(key);
    if (text === undefined) return undefined;
    return parseRfc3339(text) ?? this.fail(key, 'must be an RFC 3339 date-time, e.g. 2030-01-01T00:00:00Z');
  }
}
