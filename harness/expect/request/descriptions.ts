import { judgeDescriptionExcludes, judgeDescriptions } from '../list/descriptions.js';
import { expectation } from '../types.js';

/** The descriptions a listing shows, by key: judged as a tool listing's are. */
export const descriptions = expectation({
  block: 'request',
  name: 'descriptions',
  doc: 'the exact description the agent must see, by key',
  properties: { descriptions: { type: 'object', additionalProperties: { type: 'string' } } },
  checks: { 'request.descriptions': { class: 'harm', doc: 'the agent reads the description the operator reviewed' } },
  judge(expect, { items }, _judged, fail) {
    judgeDescriptions('request.descriptions', expect.descriptions ?? {}, items ?? new Map(), fail);
  },
});

export const descriptionExcludes = expectation({
  block: 'request',
  name: 'description_excludes',
  doc: "strings a listed item's description must not contain (an item not offered contains none)",
  properties: { description_excludes: { type: 'object', additionalProperties: { $ref: '#/$defs/fragments' } } },
  checks: { 'request.description_excludes': { class: 'harm', doc: 'what the server hid in a description does not reach the agent' } },
  judge(expect, { items }, _judged, fail) {
    judgeDescriptionExcludes('request.description_excludes', expect.description_excludes ?? {}, items ?? new Map(), fail);
  },
});
