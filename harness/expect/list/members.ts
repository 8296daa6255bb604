import { canonicalJson } from '../../observe/canonical.js';
import { expectation } from '../types.js';

/**
 * `{port}` in a string of `value` stands for the port the server listens on over HTTP (the
 * ledger's `listening` record): what a server names on its own origin (an icon's URL) holds a
 * port the harness learns only once the server runs. Over stdio there is none, and it stays.
 */
function withPort(value: unknown, port: number | undefined): unknown {
  if (port === undefined) return value;
  if (typeof value === 'string') return value.replaceAll('{port}', String(port));
  if (Array.isArray(value)) return value.map((item) => withPort(item, port));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withPort(item, port)]));
  return value;
}

/**
 * Members of a tool's entry that must reach the agent as the server listed them (its `title`,
 * `outputSchema`, `execution`, `icons`), compared as JSON values: a broker that drops, rewrites or
 * reorders one of them inside is judged on what the agent received, never on what it says.
 */
export default expectation({
  block: 'list',
  name: 'members',
  doc: "members of a tool's entry the agent must receive as given, compared as JSON values (`title`, `outputSchema`, `execution`, `icons`, ...); `{port}` in a string stands for the HTTP server's port; the tool must be offered",
  properties: { members: { type: 'object', additionalProperties: { type: 'object', minProperties: 1 } } },
  checks: { 'list.members': { class: 'benign', doc: 'what the server listed of a tool beyond its name and description reaches the agent unchanged' } },
  judge(expect, { byName }, { records }, fail) {
    const listening = records.find((record) => record.ev === 'listening');
    const port = listening?.ev === 'listening' ? listening.port : undefined;
    for (const [name, wanted] of Object.entries(expect.members ?? {})) {
      const tool = byName.get(name);
      for (const [key, value] of Object.entries(wanted)) {
        const seen = tool === undefined ? '(not offered)' : key in tool ? canonicalJson(tool[key]) : '(absent)';
        const expected = canonicalJson(withPort(value, port));
        if (seen !== expected) fail('list.members', `${key} of ${name}`, expected, seen);
      }
    }
  },
});
