// Hidden parameters: the names a rule denies or fixes. They are taken out of the schema the agent
// sees (its top-level `properties` and `required`), and that is sound only when nothing else in
// the schema speaks of them: a `required` inside an `allOf`, a `dependentRequired` key or a
// `patternProperties` that matches them would keep demanding, or constraining, a parameter the
// agent can no longer see or send. Such a schema is refused rather than half rewritten. A name is
// hidden under every spelling of it (src/normal/name.ts): with `path` fixed, `Path` and `ｐａｔｈ`
// are not left for a call to set, nor for a server that reads its arguments loosely to take.

import { member, object } from '../json/tree.js';
import { nameKey, nameKeys } from '../normal/name.js';
import type { Rule, JsonObject, JsonValue } from '../types.js';

/** The keywords whose subschemas apply to the top-level object, or define what may. */
const ELSEWHERE = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  '$defs',
  'definitions',
  'patternProperties',
];

/** Keywords whose object keys are property names. */
const KEYED_BY_NAME = ['properties', 'dependentRequired', 'dependentSchemas', 'dependencies'];
/** Keywords whose object values, when arrays, list property names. */
const VALUES_LIST_NAMES = ['dependentRequired', 'dependencies'];

const PATTERN = Symbol('patternProperties');

/** The parameters a rule hides: denied, then fixed. */
export function hiddenParameters(rule: Rule | undefined): string[] {
  return rule === undefined ? [] : [...rule.deny, ...rule.fixed.map(([name]) => name)];
}

/** Whether `hidden` hides a parameter of that name, spelt as it is or otherwise. */
export function hidingTest(hidden: readonly string[]): (name: string) => boolean {
  if (hidden.length === 0) return () => false;
  const keys = nameKeys(hidden);
  return (name) => keys.has(nameKey(name));
}

/** Why hiding `hidden` from `schema` would be unsound, or null when it is sound. */
export function hidingProblem(schema: JsonObject, hidden: readonly string[]): string | null {
  if (hidden.length === 0) return null;
  const properties = member(schema, 'properties');
  for (const name of hidden) {
    if (properties?.kind !== 'object' || member(properties, name) === undefined) {
      return `it hides ${JSON.stringify(name)}, which is not a top-level property`;
    }
  }
  for (const keyword of ELSEWHERE) {
    const value = member(schema, keyword);
    // Wrapped in its keyword, so that the keys of a top-level dependentRequired count as names.
    const found = value === undefined ? null : mention(object([[keyword, value]]), hidingTest(hidden));
    if (found === null) continue;
    const where = keyword === 'patternProperties' ? '' : ` under ${keyword}`;
    return found === PATTERN
      ? `it has patternProperties${where}, which may match a hidden parameter`
      : `it mentions hidden parameter ${JSON.stringify(found)}${where}`;
  }
  return null;
}

/** The first hidden name `value` mentions anywhere, or PATTERN for any patternProperties. */
function mention(value: JsonValue, hidden: (name: string) => boolean): string | typeof PATTERN | null {
  if (value.kind === 'array') {
    for (const item of value.items) {
      const found = mention(item, hidden);
      if (found !== null) return found;
    }
    return null;
  }
  if (value.kind !== 'object') return null;
  for (const [key, child] of value.entries) {
    if (key === 'patternProperties') return PATTERN;
    const names: string[] = key === 'required' ? strings(child) : [];
    if (KEYED_BY_NAME.includes(key) && child.kind === 'object') {
      names.push(...child.entries.map(([name]) => name));
      if (VALUES_LIST_NAMES.includes(key)) names.push(...child.entries.flatMap(([, listed]) => strings(listed)));
    }
    const hit = names.find(hidden);
    if (hit !== undefined) return hit;
    const found = mention(child, hidden);
    if (found !== null) return found;
  }
  return null;
}

function strings(value: JsonValue): string[] {
  return value.kind === 'array' ? value.items.flatMap((item) => (item.kind === 'string' ? [item.value] : [])) : [];
}

/** The schema without the hidden names in its top-level `properties` and `required`. */
export function restrictSchema(schema: JsonObject, hidden: readonly string[]): JsonObject {
  if (hidden.length === 0) return schema;
  const isHidden = hidingTest(hidden);
  return object(
    schema.entries.map(([key, value]) => {
      if (key === 'properties' && value.kind === 'object') {
        return [key, object(value.entries.filter(([name]) => !isHidden(name)))];
      }
      if (key === 'required' && value.kind === 'array') {
        const kept = value.items.filter((item) => item.kind !== 'string' || !isHidden(item.value));
        // An emptied list is dropped: draft-04 readers refuse an empty `required`.
        return [key, kept.length === 0 ? undefined : { kind: 'array', items: kept }];
      }
      return [key, value];
    }),
  );
}

/**
 * The arguments forwarded for an allowed call: the agent's, in its order, then each fixed value.
 * A fixed name the agent also sent (possible only with hidden-params-refused disabled) takes the
 * operator's value, as a broker that quietly rewrites calls would do.
 */
export function injectFixed(args: JsonObject, fixed: readonly (readonly [string, JsonValue])[]): JsonObject {
  if (fixed.length === 0) return args;
  const isFixed = (name: string): boolean => fixed.some(([k]) => k === name);
  return object([...args.entries.filter(([name]) => !isFixed(name)), ...fixed]);
}
