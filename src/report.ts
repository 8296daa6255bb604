// The load report: what Load decided, for the operator and the suite to read. Every text the
// server chose (tool names, and the claims quoted in reasons) is escaped before it is written.

import type { LoadOutcome } from './load.js';
import { plain, type Plain } from './json/tree.js';
import { writeJson } from './json/writer.js';
import { escapeServerText as esc } from './sanitize.js';

const REPORT_FORMAT = 'gauntlet-load/1';

export function reportText(serverId: string, outcome: LoadOutcome): string {
  const report: Plain = {
    format: REPORT_FORMAT,
    server: serverId,
    registered: outcome.registered.map((tool) => ({
      tool: esc(tool.name),
      name: esc(tool.name),
      effect: tool.effect ?? null,
      ...(tool.hintMismatchOverridden === undefined ? {} : { hint_mismatch_overridden: esc(tool.hintMismatchOverridden) }),
    })),
    refused: outcome.refused.map((r) => ({ tool: esc(r.tool), guard: r.guard, reason: esc(r.reason) })),
    unpinned: outcome.unpinned.map(esc),
    unclassified: outcome.unclassified.map(esc),
  };
  return `${writeJson(plain(report))}\n`;
}
