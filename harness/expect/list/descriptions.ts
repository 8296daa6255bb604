import { expectation, type Fail } from '../types.js';
import { carrierOf } from '../../observe/spellings.js';

type Offered = ReadonlyMap<string, Record<string, unknown>>;

const described = (tool: Record<string, unknown> | undefined): string | undefined => (typeof tool?.description === 'string' ? tool.description : undefined);

/** Fails `check` for each item shown another description than given; shared with resources and prompts. */
export function judgeDescriptions(check: string, wanted: Readonly<Record<string, string>>, offered: Offered, fail: Fail): void {
  for (const [name, text] of Object.entries(wanted)) {
    const seen = described(offered.get(name));
    if (seen !== text) fail(check, `description of ${name}`, text, seen ?? '(not offered)');
  }
}

/** Fails `check` for each banned fragment in an item's description; an item not offered holds none. */
export function judgeDescriptionExcludes(check: string, banned: Readonly<Record<string, readonly string[]>>, offered: Offered, fail: Fail): void {
  for (const [name, fragments] of Object.entries(banned)) {
    const text = described(offered.get(name)) ?? '';
    for (const fragment of fragments) if (carrierOf([text], fragment) !== undefined) fail(check, `description of ${name} excludes ${JSON.stringify(fragment)}`, 'absent', 'present');
  }
}

export const descriptions = expectation({
  block: 'list',
  name: 'descriptions',
  doc: 'the exact description the agent must see for a tool',
  properties: { descriptions: { type: 'object', additionalProperties: { type: 'string' } } },
  checks: { 'list.descriptions': { class: 'harm', doc: 'the agent reads the description the operator reviewed, not what the server wrote since' } },
  judge(expect, { byName }, _judged, fail) {
    judgeDescriptions('list.descriptions', expect.descriptions ?? {}, byName, fail);
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
  doc: "strings a tool's description must not contain (a tool not offered contains none) (found as written or respelt: compatibility forms, any case)",
  properties: { description_excludes: { type: 'object', additionalProperties: { $ref: '#/$defs/fragments' } } },
  checks: { 'list.description_excludes': { class: 'harm', doc: 'what the server hid in a description does not reach the agent' } },
  judge(expect, { byName }, _judged, fail) {
    judgeDescriptionExcludes('list.description_excludes', expect.description_excludes ?? {}, byName, fail);
  },
});
