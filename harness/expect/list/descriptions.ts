import { expectation } from '../types.js';

const described = (tool: Record<string, unknown> | undefined): string | undefined => (typeof tool?.description === 'string' ? tool.description : undefined);

export const descriptions = expectation({
  block: 'list',
  name: 'descriptions',
  doc: 'the exact description the agent must see for a tool',
  properties: { descriptions: { type: 'object', additionalProperties: { type: 'string' } } },
  checks: { 'list.descriptions': { class: 'harm', doc: 'the agent reads the description the operator reviewed, not what the server wrote since' } },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, text] of Object.entries(expect.descriptions ?? {})) {
      const seen = described(byName.get(name));
      if (seen !== text) fail('list.descriptions', `description of ${name}`, text, seen ?? '(tool not offered)');
    }
  },
});

export const descriptionMaxChars = expectation({
  block: 'list',
  name: 'description_max_chars',
  doc: "the most code points a tool's description may have; the tool must be offered",
  properties: { description_max_chars: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } },
  checks: {
    'list.description_max_chars': { class: 'harm', doc: 'no description past the cap reaches the agent' },
    'list.description_offered': { class: 'benign', doc: 'the tool whose description is capped is still offered' },
  },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, most] of Object.entries(expect.description_max_chars ?? {})) {
      const text = described(byName.get(name));
      if (text === undefined) fail('list.description_offered', `description of ${name}`, 'the tool offered with a description', '(not offered)');
      else if ([...text].length > most) fail('list.description_max_chars', `description length of ${name}`, `at most ${most} characters`, [...text].length);
    }
  },
});

export const descriptionExcludes = expectation({
  block: 'list',
  name: 'description_excludes',
  doc: "strings a tool's description must not contain (a tool not offered contains none)",
  properties: { description_excludes: { type: 'object', additionalProperties: { $ref: '#/$defs/fragments' } } },
  checks: { 'list.description_excludes': { class: 'harm', doc: 'what the server hid in a description does not reach the agent' } },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, banned] of Object.entries(expect.description_excludes ?? {})) {
      const text = described(byName.get(name)) ?? '';
      for (const fragment of banned) if (text.includes(fragment)) fail('list.description_excludes', `description of ${name} excludes ${JSON.stringify(fragment)}`, 'absent', 'present');
    }
  },
});
