// Guards between several servers behind one broker (docs/reference-broker.md, "Several servers").
// Each server's tools are decided on their own first; these then decide on all of them together.
// A name is the agent's only way to say which server it means, so no two servers may share one,
// and no server's words may point the agent at another server's tool.

import { nameKey } from '../normal/name.js';
import { redactValue } from '../result/redact.js';
import type { FleetGuard, ResultGuard } from './types.js';

/**
 * An offered name two servers would both claim is refused for every one of them: given to the
 * first listed, a server could take a trusted server's name by being started earlier; to the
 * last, by being started later. Within one server, name-unique decides as before. Names are
 * compared in their normal form (src/normal/name.ts): `search` and `Search` are one claim.
 */
export const serverNamesUnique: FleetGuard = {
  name: 'server-names-unique',
  judge(registered) {
    const servers = new Map<string, Set<string | undefined>>();
    for (const tool of registered) servers.set(nameKey(tool.name), (servers.get(nameKey(tool.name)) ?? new Set()).add(tool.server));
    const claimants = (name: string) => servers.get(nameKey(name))!;
    const claimed = (name: string) => claimants(name).size > 1;
    return {
      registered: registered.filter((tool) => !claimed(tool.name)),
      refused: registered
        .filter((tool) => claimed(tool.name))
        .map((tool) => ({
          ...(tool.server === undefined ? {} : { server: tool.server }),
          tool: tool.tool,
          guard: 'server-names-unique',
          reason: `its offered name ${JSON.stringify(tool.name)} is claimed by the servers ${[...claimants(tool.name)].join(' and ')}, so no call to it could be routed to one of them for certain`,
        })),
    };
  },
};

const FOREIGN_MENTIONS = 'foreign-mentions';

/** What stands in for another server's tool in one server's words. */
export const FOREIGN_MARKER = '[a tool of another server]';

/** Each whole-word occurrence of a name, as a tool name is written (letters, digits, `_`, `-`). */
function mentions(names: readonly string[]): ((text: string) => string) | undefined {
  if (names.length === 0) return undefined;
  // Whole words only: where a shorter name is the start of a longer one, the lookahead fails for
  // the shorter and the match backtracks to the longer, so the order of the names does not matter.
  // Offered names keep to the name rule, so none holds a character a pattern would read.
  const pattern = new RegExp(`(?<![A-Za-z0-9_-])(?:${names.join('|')})(?![A-Za-z0-9_-])`, 'g');
  return (text) => text.replace(pattern, FOREIGN_MARKER);
}

/**
 * A server's description of its tool, and later its results, may name its own tools (that is
 * routing guidance) but not another server's: a server cannot vouch for, or order, a call it
 * would not receive (tool shadowing). The names the agent is offered other servers' tools by
 * are removed from the description shown, and kept on the tool for its results; a name that is
 * also one of the server's own (its tool names or offered names) is its own to use.
 */
export const foreignMentions: FleetGuard = {
  name: FOREIGN_MENTIONS,
  judge(registered) {
    return {
      registered: registered.map((tool) => {
        const own = new Set(registered.filter((other) => other.server === tool.server).flatMap((other) => [other.tool, other.name]));
        const foreign = [...new Set(registered.filter((other) => other.server !== tool.server).map((other) => other.name))].filter((name) => !own.has(name));
        const remove = mentions(foreign);
        if (remove === undefined) return tool;
        // The title is read as the description is, so it may not steer the agent either.
        const { title, description } = tool.shown;
        const removed = (text: string | undefined) => (text === undefined ? undefined : remove(text));
        return { ...tool, foreign, shown: { ...tool.shown, title: removed(title), description: removed(description) } };
      }),
      refused: [],
    };
  },
};

/** ...and from every string of the tool's results, as inspection left them. */
export const foreignMentionsResult: ResultGuard = {
  name: FOREIGN_MENTIONS,
  check(result, { tool }) {
    const remove = mentions(tool?.foreign ?? []);
    return { kind: 'pass', result: remove === undefined ? result : redactValue(result, remove) };
  },
};
