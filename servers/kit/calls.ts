/**
 * What the kit does with a tools/call. Every name is answered, listed or not, so a forwarded call
 * always shows up as a success; unless `hang_on_call` or `die_on_call` names the tool the call is
 * for, to play a server that stalls or crashes mid-call.
 */
import { writeString } from './json-text.js';
import { type Knobs, listedNameOf } from './knobs.js';
import { TOOLSETS } from './tools.js';

export type CallFate = 'answer' | 'hang' | 'die';

export function callFate(knobs: Knobs, name: string): CallFate {
  const tool = toolCalled(knobs, name);
  if (tool === null) return 'answer';
  if (tool === knobs.hangOnCall) return 'hang';
  if (tool === knobs.dieOnCall) return 'die';
  return 'answer';
}

/**
 * The result of an answered call. It names only the tool: the harness reads the arguments that
 * arrived from the ledger's raw line, and scenarios match this text whole.
 */
export function callResult(name: string): string {
  return `{"content":[{"type":"text","text":${writeString(`${name} ran`)}}]}`;
}

/**
 * The tool of the set a call is for, whether it names the tool by its own name or by the one it
 * is listed under (knobs.ts keeps each of those names to one tool).
 */
function toolCalled(knobs: Knobs, name: string): string | null {
  const def = TOOLSETS[knobs.toolset].find((tool) => tool.name === name || listedNameOf(knobs, tool.name) === name);
  return def?.name ?? null;
}
