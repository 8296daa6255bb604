import { losslessText } from '../../observe/arguments.js';
import { metaOf } from '../answer.js';
import { expectation } from '../types.js';

export const metaIncludes = expectation({
  block: 'call',
  name: 'meta_includes',
  doc: "keys the result's `_meta` must carry",
  properties: { meta_includes: { $ref: '#/$defs/names' } },
  checks: { 'call.meta_includes': { class: 'benign', doc: "the server's own `_meta` keys reach the agent" } },
  judge(expect, { answer }, _judged, fail) {
    const meta = metaOf(answer);
    for (const key of expect.meta_includes ?? []) if (!(key in meta)) fail('call.meta_includes', `_meta carries ${key}`, 'present', Object.keys(meta));
  },
});

export const metaExcludes = expectation({
  block: 'call',
  name: 'meta_excludes',
  doc: "keys the result's `_meta` must not carry (the broker's own, forged by the server)",
  properties: { meta_excludes: { $ref: '#/$defs/names' } },
  checks: { 'call.meta_excludes': { class: 'harm', doc: "no key the server forged in the broker's name reaches the agent" } },
  judge(expect, { answer }, _judged, fail) {
    const meta = metaOf(answer);
    for (const key of expect.meta_excludes ?? []) if (key in meta) fail('call.meta_excludes', `_meta lacks ${key}`, 'absent', losslessText(meta[key]));
  },
});
