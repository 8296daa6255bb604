// An effect contract's evaluation: the read-back's arguments copied from the call, then each
// check on the values its selectors name. It is data only; a value a selector cannot find fails
// the check, since an unverifiable write is not a verified one.

import { canonicalJson } from '../json/canonical.js';
import { compareNumbers } from '../json/number.js';
import { resolvePointer } from '../json/pointer.js';
import { object } from '../json/tree.js';
import type { Check, Contract, Selector, JsonObject, JsonValue } from '../types.js';

/** What the selectors read: the call's arguments, and the write's and read-back's structuredContent. */
export type Sources = Readonly<Record<Selector['from'], JsonValue | undefined>>;

function select(selector: Selector, sources: Sources): JsonValue | undefined {
  const root = sources[selector.from];
  return root === undefined ? undefined : resolvePointer(root, selector.pointer);
}

/** The read-back's arguments, or why one of them has no value. */
export function readbackArguments(contract: Contract, sources: Sources): JsonObject | string {
  const entries: (readonly [string, JsonValue])[] = [];
  for (const [name, selector] of contract.readbackArguments) {
    const value = select(selector, sources);
    if (value === undefined) return `the read-back argument ${JSON.stringify(name)} has no value at ${selector.from} ${selector.pointer}`;
    entries.push([name, value]);
  }
  return object(entries);
}

/** The first check that does not hold, described; null when every check holds. */
export function failedCheck(contract: Contract, sources: Sources): string | null {
  for (const check of contract.checks) {
    if (!holds(check, sources)) {
      const right = check.right === undefined ? '' : ` ${check.right.from} ${check.right.pointer}`;
      return `${check.left.from} ${check.left.pointer} ${check.op}${right} does not hold`;
    }
  }
  return null;
}

function holds({ left, op, right }: Check, sources: Sources): boolean {
  const a = select(left, sources);
  if (op === 'present') return a !== undefined;
  const b = right === undefined ? undefined : select(right, sources);
  if (a === undefined || b === undefined) return false;
  switch (op) {
    case 'equals':
      return canonicalJson(a) === canonicalJson(b);
    case 'not_equals':
      return canonicalJson(a) !== canonicalJson(b);
    case 'less_than':
    case 'greater_than': {
      const order = compare(a, b);
      return order !== undefined && (op === 'less_than' ? order < 0 : order > 0);
    }
    case 'contains':
      if (a.kind === 'string' && b.kind === 'string') return a.value.includes(b.value);
      return a.kind === 'array' && a.items.some((item) => canonicalJson(item) === canonicalJson(b));
  }
}

/** Numbers by their exact values, strings by code units; anything else does not compare. */
function compare(a: JsonValue, b: JsonValue): number | undefined {
  if (a.kind === 'number' && b.kind === 'number') return compareNumbers(a.text, b.text);
  if (a.kind === 'string' && b.kind === 'string') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  return undefined;
}
