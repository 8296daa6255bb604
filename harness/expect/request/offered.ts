import { judgeExcludedNames, judgeIncluded } from '../list/offered.js';
import { expectation } from '../types.js';

/** The items a listing offers, by key (URI, URI template or prompt name): judged as a tool listing's names are. */
export const includes = expectation({
  block: 'request',
  name: 'includes',
  doc: 'keys (URI, URI template or prompt name) the listing must offer',
  properties: { includes: { $ref: '#/$defs/names' } },
  checks: { 'request.includes': { class: 'benign', doc: 'what the operator allows is offered' } },
  judge(expect, { items }, _judged, fail) {
    judgeIncluded('request.includes', expect.includes ?? [], items ?? new Map(), fail);
  },
});

export const excludes = expectation({
  block: 'request',
  name: 'excludes',
  doc: 'keys (URI, URI template or prompt name) the listing must not offer, under any spelling of them (a name in another case or compatibility form, a URI with its scheme, host or unreserved escapes spelt otherwise)',
  properties: { excludes: { $ref: '#/$defs/names' } },
  checks: { 'request.excludes': { class: 'harm', doc: 'what the operator did not allow, or what changed since the pin, is not offered' } },
  judge(expect, { items }, _judged, fail) {
    judgeExcludedNames('request.excludes', expect.excludes ?? [], items ?? new Map(), fail);
  },
});
