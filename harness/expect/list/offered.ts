import { byItemKey, itemKey } from '../../observe/spellings.js';
import { expectation, type Fail } from '../types.js';

type Offered = ReadonlyMap<string, unknown>;

/** Fails `check` for each name not offered; shared with the listings of resources and prompts. */
export function judgeIncluded(check: string, names: readonly string[], offered: Offered, fail: Fail): void {
  for (const name of names) if (!offered.has(name)) fail(check, `offers ${name}`, 'offered', 'not offered');
}

/**
 * Fails `check` for each name offered, under its own spelling or another one of the same item
 * (observe/spellings.ts: case, compatibility forms, invisible characters, a URI's escapes); shared
 * with the listings of resources and prompts.
 */
export function judgeExcludedNames(check: string, names: readonly string[], offered: Offered, fail: Fail): void {
  const spelt = byItemKey(offered.keys());
  for (const name of names) {
    const held = offered.has(name) ? name : spelt.get(itemKey(name));
    if (held !== undefined) fail(check, `withholds ${name}`, 'not offered', held === name ? 'offered' : `offered as ${JSON.stringify(held)}`);
  }
}

export const includes = expectation({
  block: 'list',
  name: 'includes',
  doc: 'tools the agent must be offered',
  properties: { includes: { $ref: '#/$defs/names' } },
  checks: { 'list.includes': { class: 'benign', doc: 'the tools the operator allows are offered' } },
  judge(expect, { byName }, _judged, fail) {
    judgeIncluded('list.includes', expect.includes ?? [], byName, fail);
  },
});

export const excludes = expectation({
  block: 'list',
  name: 'excludes',
  doc: 'tools the agent must not be offered, under any spelling of their names (case, compatibility forms, invisible characters)',
  properties: { excludes: { $ref: '#/$defs/names' } },
  checks: { 'list.excludes': { class: 'harm', doc: 'a tool the operator did not allow is not offered' } },
  judge(expect, { byName }, _judged, fail) {
    judgeExcludedNames('list.excludes', expect.excludes ?? [], byName, fail);
  },
});

export const count = expectation({
  block: 'list',
  name: 'count',
  doc: 'exactly how many tools the agent is offered',
  properties: { count: { type: 'integer', minimum: 0 } },
  checks: { 'list.count': { class: 'harm', doc: 'the agent is offered exactly the tools the operator allows' } },
  judge(expect, { tools }, _judged, fail) {
    if (tools.length !== expect.count) fail('list.count', 'tool count', expect.count, tools.length);
  },
});
