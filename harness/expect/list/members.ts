import { canonicalJson } from '../../observe/canonical.js';
import { expectation } from '../types.js';

/**
 * Members of a tool's entry that must reach the agent as the server listed them (its `title`,
 * `outputSchema`, `execution`), compared as JSON values: a broker that drops, rewrites or
 * reorders one of them inside is judged on what the agent received, never on what it says.
 */
export default expectation({
  block: 'list',
  name: 'members',
  doc: "members of a tool's entry the agent must receive as given, compared as JSON values (`title`, `outputSchema`, `execution`, ...); the tool must be offered",
  properties: { members: { type: 'object', additionalProperties: { type: 'object', minProperties: 1 } } },
  checks: { 'list.members': { class: 'benign', doc: 'what the server listed of a tool beyond its name and description reaches the agent unchanged' } },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, wanted] of Object.entries(expect.members ?? {})) {
      const tool = byName.get(name);
      for (const [key, value] of Object.entries(wanted)) {
        const seen = tool === undefined ? '(not offered)' : key in tool ? canonicalJson(tool[key]) : '(absent)';
        if (seen !== canonicalJson(value)) fail('list.members', `${key} of ${name}`, canonicalJson(value), seen);
      }
    }
  },
});
