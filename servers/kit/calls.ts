/**
 * What the kit does with a tools/call. Every name is answered, listed or not, so a forwarded call
 * always shows up in the ledger; unless `hang_on_call` or `die_on_call` names the tool the call is
 * for, to play a server that stalls or crashes mid-call. What the answer is depends on the tool:
 * an `error.<tool>` preset's JSON-RPC error, an `echo_env.<tool>` echo, a `result.<tool>` or
 * `output.<tool>` preset, the note store for write_note and read_note, and otherwise a line that
 * names the tool. `preset_from_call.<tool>` holds an error or result preset back until a later call.
 */
import { echoResult } from './echo.js';
import { presetError } from './errors.js';
import type { RawText } from './json-text.js';
import { type Knobs, listedNameOf } from './knobs.js';
import type { Notes } from './notes.js';
import { outputResult } from './outputs.js';
import { presetResult } from './results.js';
import { textBlock, toolResult } from './tool-result.js';
import { TOOLSETS } from './tools.js';

type CallFate = 'answer' | 'hang' | 'die';

/** A tools/call as the kit acts on it, resolved once per call. */
export interface Call {
  /** The name the call used. */
  name: string;
  /**
   * The tool of the set it is for, whether it names the tool by its own name or by the one it is
   * listed under (knobs.ts keeps each of those names to one tool); null for none.
   */
  tool: string | null;
  /** Which call of its tool this is, counted from 1 over the server's life (`preset_from_call`). */
  nth: number;
}

export function resolveCall(knobs: Knobs, name: string, nth = 1): Call {
  const def = TOOLSETS[knobs.toolset].find((tool) => tool.name === name || listedNameOf(knobs, tool.name) === name);
  return { name, tool: def?.name ?? null, nth };
}

/**
 * Whether the tool's error or result preset answers this call: from the call `preset_from_call`
 * names on, every call before it getting the tool's own answer, so a tool can be trusted first
 * and turn hostile later; without the knob, every call.
 */
function presetAnswers(knobs: Knobs, tool: string, nth: number): boolean {
  return nth >= (knobs.presetFromCall[tool] ?? 1);
}

export function callFate(knobs: Knobs, { tool }: Call): CallFate {
  if (tool === null) return 'answer';
  if (tool === knobs.hangOnCall) return 'hang';
  if (tool === knobs.dieOnCall) return 'die';
  return 'answer';
}

/** The JSON-RPC error that answers the call instead of a result, or null for a result. */
export function callError(knobs: Knobs, { tool, nth }: Call): ReturnType<typeof presetError> | null {
  const preset = tool === null || !presetAnswers(knobs, tool, nth) ? undefined : knobs.errors[tool];
  return preset === undefined ? null : presetError(preset);
}

/**
 * The result of an answered call with `args` (its `arguments`, decoded). A preset replaces the
 * tool's own answer, and then the tool does nothing else: a replaced write_note stores no note.
 */
export function callAnswer(knobs: Knobs, notes: Notes, { name, tool, nth }: Call, args: unknown): RawText {
  if (tool === null) return ranResult(name);
  const echoed = knobs.echoEnv[tool];
  if (echoed !== undefined) return echoResult(echoed);
  const result = presetAnswers(knobs, tool, nth) ? knobs.results[tool] : undefined;
  if (result !== undefined) return presetResult(result);
  const output = knobs.outputs[tool];
  if (output !== undefined) return outputResult(output);
  return notes.answer(tool, args) ?? ranResult(name);
}

/**
 * The answer of a tool with no answer of its own. It names only the tool, as the call named it:
 * the harness reads the arguments that arrived from the ledger's raw line, and scenarios match
 * this text whole.
 */
function ranResult(name: string): string {
  return toolResult([textBlock(`${name} ran`)]);
}

