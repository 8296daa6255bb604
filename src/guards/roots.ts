// The guard on what a server learns of the agent's roots (roots/list): the broker asks the agent,
// and tells the server only the roots the operator permits it, by exact URI. The agent's other
// roots (its home, other projects) never reach the server; with none permitted it hears of none.

import { member, stringValue } from '../json/tree.js';
import type { JsonValue } from '../types.js';
import type { ServerReplyGuard } from './types.js';
import { withMembers } from '../json/members.js';

export const rootsPermitted: ServerReplyGuard = {
  name: 'roots-permitted',
  methods: ['roots/list'],
  reshape(result, { policy }): JsonValue {
    const roots = result.kind === 'object' ? member(result, 'roots') : undefined;
    const items = roots?.kind === 'array' ? roots.items : [];
    const permitted = items.filter((root) => {
      const uri = root.kind === 'object' ? stringValue(member(root, 'uri')) : undefined;
      return uri !== undefined && policy.roots.includes(uri);
    });
    const base = result.kind === 'object' ? result : { kind: 'object' as const, entries: [] };
    return withMembers(base, { roots: { kind: 'array', items: permitted } });
  },
};
