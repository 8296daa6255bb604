// The load report: what Load decided, for the operator and the suite to read. Every text the
// server chose (tool names, and the claims quoted in reasons) is escaped before it is written.

import type { LoadOutcome } from './load.js';
import { plain } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import { escapeServerText as esc } from '../inspect/sanitize.js';
import type { Plain } from '../types.js';

const REPORT_FORMAT = 'gauntlet-load/1';

// Refusals by these guards are reported in lists of their own, as the load report defines.
const LISTED_APART: Readonly<Record<string, 'unpinned' | 'unclassified'>> = {
  classified: 'unclassified',
  pinned: 'unpinned',
};

export function reportText(serverId: string, outcome: LoadOutcome): string {
  const apart = { unpinned: [] as string[], unclassified: [] as string[] };
  const refused: Plain[] = [];
  for (const r of outcome.refused) {
    const list = LISTED_APART[r.guard];
    if (list === undefined) refused.push({ tool: esc(r.tool), guard: r.guard, reason: esc(r.reason) });
    else apart[list].push(esc(r.tool));
  }
  const report: Plain = {
    format: REPORT_FORMAT,
    server: serverId,
    registered: outcome.registered.map((tool) => ({
      tool: esc(tool.tool),
      name: esc(tool.name),
      effect: tool.effect ?? null,
      ...(tool.hintMismatchOverridden === undefined ? {} : { hint_mismatch_overridden: esc(tool.hintMismatchOverridden) }),
    })),
    refused,
    ...apart,
  };
  return `${writeJson(plain(report))}\n`;
}
