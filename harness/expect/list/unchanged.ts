import { isDeepStrictEqual } from 'node:util';
import { losslessText } from '../../observe/arguments.js';
import { expectation } from '../types.js';

export default expectation({
  block: 'list',
  name: 'unchanged',
  doc: "the listing is the session's first one again: the same tools, each the same JSON value (name, description, input schema, annotations and all)",
  properties: { unchanged: { const: true } },
  checks: { 'list.unchanged': { class: 'harm', doc: 'what the server changed mid-session does not reach the agent' } },
  judge(_expect, { byName, first }, _judged, fail) {
    for (const [name, tool] of byName) {
      const before = first.get(name);
      if (before === undefined) fail('list.unchanged', 'listing unchanged', 'only the tools first offered', `${name} is new`);
      else if (!isDeepStrictEqual(tool, before)) fail('list.unchanged', `${name} unchanged`, losslessText(before).slice(0, 300), losslessText(tool).slice(0, 300));
    }
    for (const name of first.keys()) if (!byName.has(name)) fail('list.unchanged', 'listing unchanged', `${name} still offered`, 'withdrawn');
  },
});
