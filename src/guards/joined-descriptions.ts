// A payload split across several tools: one description holds the start of an instruction and
// the next the rest, so neither matches a pattern on its own, while the model reads the listing
// as one text. Each server's offered descriptions are also searched two by two, as the agent is
// shown them, in listing order; a pair whose joined text holds an injection withholds both tools.

import { detect, describeFindings } from '../inspect/detect.js';
import type { RegisteredTool } from '../types.js';
import type { ServerToolsGuard } from './types.js';

const JOINED_DESCRIPTIONS = 'joined-descriptions';

/**
 * Neighbours only, so the work is bounded by the tool count and the description cap: a payload
 * spread over three tools or more, or over tools listed apart, is not found (docs/reference-broker.md).
 * Each description alone was already inspected (inspect-descriptors); only what their join adds counts here.
 */
export const joinedDescriptions: ServerToolsGuard = {
  name: JOINED_DESCRIPTIONS,
  judge(registered) {
    const withheld = new Map<RegisteredTool, string>();
    for (let i = 0; i + 1 < registered.length; i++) {
      const [first, second] = [registered[i]!, registered[i + 1]!];
      const [a, b] = [first.shown.description, second.shown.description];
      if (a === undefined || b === undefined) continue;
      // Only what the join adds: a finding of one description alone is inspect-descriptors' to
      // judge, and withholding its neighbour for it would refuse a tool that said nothing.
      const alone = new Set([...detect(a, ['injection']), ...detect(b, ['injection'])].map((finding) => finding.pattern));
      const findings = detect(`${a} ${b}`, ['injection']).filter((finding) => !alone.has(finding.pattern));
      if (findings.length === 0) continue;
      withheld.set(first, `its description joined with that of ${second.name}, the next tool listed, holds ${describeFindings(findings)}`);
      withheld.set(second, `its description joined with that of ${first.name}, the tool listed before it, holds ${describeFindings(findings)}`);
    }
    return {
      registered: registered.filter((tool) => !withheld.has(tool)),
      refused: [...withheld].map(([tool, reason]) => ({ ...(tool.server === undefined ? {} : { server: tool.server }), tool: tool.tool, guard: JOINED_DESCRIPTIONS, reason })),
    };
  },
};
