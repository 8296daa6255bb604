// Guards on the name a tool is offered under. A name outside the rule may not survive a client,
// and a name already taken would make one tool stand for another, under any spelling of it:
// `Search_Notes` beside `search_notes` is one name to a reader and to a model.

import { NAME_RULE } from '../load/names.js';
import { nameKey } from '../normal/name.js';
import type { ToolGuard } from './types.js';

export const nameRules: ToolGuard = {
  name: 'name-rules',
  check: ({ offered }) =>
    NAME_RULE.test(offered)
      ? { kind: 'pass' }
      : { kind: 'refuse', reason: `its offered name ${JSON.stringify(offered)} breaks the name rule ${NAME_RULE.source}` },
};

export const nameUnique: ToolGuard = {
  name: 'name-unique',
  // Only registered tools take a name; the first to register keeps it. Names are compared in
  // their normal form (src/normal/name.ts), so a second spelling is refused as ambiguous.
  check: ({ offered, taken }) =>
    taken.has(nameKey(offered))
      ? { kind: 'refuse', reason: `its offered name ${JSON.stringify(offered)} is already taken by another tool` }
      : { kind: 'pass' },
};
