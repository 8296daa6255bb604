import { expectation } from '../types.js';

export const includes = expectation({
  block: 'list',
  name: 'includes',
  doc: 'tools the agent must be offered',
  properties: { includes: { $ref: '#/$defs/names' } },
  checks: { 'list.includes': { class: 'benign', doc: 'the tools the operator allows are offered' } },
  judge(expect, { byName }, _judged, fail) {
    for (const name of expect.includes ?? []) if (!byName.has(name)) fail('list.includes', `offers ${name}`, 'offered', 'not offered');
  },
});

export const excludes = expectation({
  block: 'list',
  name: 'excludes',
  doc: 'tools the agent must not be offered',
  properties: { excludes: { $ref: '#/$defs/names' } },
  checks: { 'list.excludes': { class: 'harm', doc: 'a tool the operator did not allow is not offered' } },
  judge(expect, { byName }, _judged, fail) {
    for (const name of expect.excludes ?? []) if (byName.has(name)) fail('list.excludes', `withholds ${name}`, 'not offered', 'offered');
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
