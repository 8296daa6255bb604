/**
 * Knobs: the named misbehaviours a kit server is composed from (docs/hostile-servers.md).
 * They arrive as `key=value` strings, from a catalogue preset and the command line, and are
 * checked here once, at start: an unknown knob or bad value must stop the server before it
 * says anything, rather than quietly run some other scenario.
 */
import { type AnnotationPreset, ANNOTATION_TEXT, TOOLSETS, type ToolsetName } from './tools.js';

export type CursorMode = 'normal' | 'repeat' | 'endless';

export interface Knobs {
  toolset: ToolsetName;
  /** Tools per page; null puts the whole listing on one page. */
  pageSize: number | null;
  filler: number;
  duplicate: string | null;
  /** `next`: the second copy goes on a page of its own after the last page. */
  duplicatePage: 'same' | 'next';
  cursor: CursorMode;
  runDescription: string | null;
  runSchema: string | null;
  bignum: string | null;
  runReserialise: boolean;
  runDrop: string | null;
  runAdd: string | null;
  /** Per tool of the tool set. */
  annotations: Record<string, AnnotationPreset>;
  poisoned: Set<string>;
}

export class KnobError extends Error {}

/** `key=value` arguments → a record; a later assignment to the same key wins. */
export function parseAssignments(args: readonly string[]): Record<string, string> {
  const assigned: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new KnobError(`expected key=value, got ${JSON.stringify(arg)}`);
    assigned[arg.slice(0, eq)] = arg.slice(eq + 1);
  }
  return assigned;
}

const KNOB_KEYS = [
  'toolset',
  'page_size',
  'filler',
  'duplicate',
  'duplicate_page',
  'cursor',
  'run.description',
  'run.schema',
  'bignum',
  'run.reserialise',
  'run.drop',
  'run.add',
  'annotations.<tool>',
  'description.<tool>',
];

/** MCP's advice for tool names: 1 to 128 of these characters. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function resolveKnobs(assigned: Readonly<Record<string, string>>): Knobs {
  const toolset = oneOf('toolset', assigned['toolset'] ?? 'notes', Object.keys(TOOLSETS) as ToolsetName[]);
  const tools = TOOLSETS[toolset];
  const toolNames = tools.map((tool) => tool.name);
  const toolOfSet = (key: string, value: string): string => oneOf(key, value, toolNames);

  const knobs: Knobs = {
    toolset,
    pageSize: null,
    filler: 0,
    duplicate: null,
    duplicatePage: 'same',
    cursor: 'normal',
    runDescription: null,
    runSchema: null,
    bignum: null,
    runReserialise: false,
    runDrop: null,
    runAdd: null,
    annotations: {},
    poisoned: new Set(),
  };
  for (const [key, value] of Object.entries(assigned)) {
    const [prefix, tool] = splitToolKey(key);
    if (tool !== null) {
      const name = toolOfSet(key, tool);
      if (prefix === 'annotations') {
        knobs.annotations[name] = oneOf(key, value, Object.keys(ANNOTATION_TEXT) as AnnotationPreset[]);
      } else {
        oneOf(key, value, ['poisoned']);
        knobs.poisoned.add(name);
      }
      continue;
    }
    switch (key) {
      case 'toolset':
        break;
      case 'page_size':
        knobs.pageSize = integer(key, value, 1);
        break;
      case 'filler':
        knobs.filler = integer(key, value, 0);
        break;
      case 'duplicate':
        knobs.duplicate = toolOfSet(key, value);
        break;
      case 'duplicate_page':
        knobs.duplicatePage = oneOf(key, value, ['same', 'next'] as const);
        break;
      case 'cursor':
        knobs.cursor = oneOf(key, value, ['normal', 'repeat', 'endless'] as const);
        break;
      case 'run.description':
        knobs.runDescription = toolOfSet(key, value);
        break;
      case 'run.schema':
        knobs.runSchema = toolOfSet(key, value);
        break;
      case 'bignum':
        knobs.bignum = oneOf(key, value, tools.filter((t) => t.integerProperty !== undefined).map((t) => t.name));
        break;
      case 'run.reserialise':
        oneOf(key, value, ['1']);
        knobs.runReserialise = true;
        break;
      case 'run.drop':
        knobs.runDrop = toolOfSet(key, value);
        break;
      case 'run.add':
        if (!TOOL_NAME.test(value) || toolNames.includes(value) || value.startsWith('filler_')) {
          throw badValue(key, value, 'a tool name (1-128 of A-Z a-z 0-9 _ - .) not otherwise listed');
        }
        knobs.runAdd = value;
        break;
      default:
        throw new KnobError(`unknown knob ${JSON.stringify(key)}; knobs are ${KNOB_KEYS.join(', ')}`);
    }
  }
  return knobs;
}

/** `annotations.write_note` → ['annotations', 'write_note']; any other key → [key, null]. */
function splitToolKey(key: string): [string, string | null] {
  const match = /^(annotations|description)\.(.+)$/.exec(key);
  return match ? [match[1]!, match[2]!] : [key, null];
}

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw badValue(key, value, `one of ${allowed.join(', ')}`);
}

function integer(key: string, value: string, min: number): number {
  const n = /^(0|[1-9]\d*)$/.test(value) ? Number(value) : NaN;
  if (Number.isSafeInteger(n) && n >= min) return n;
  throw badValue(key, value, `an integer >= ${min}`);
}

function badValue(key: string, value: string, expected: string): KnobError {
  return new KnobError(`bad value ${JSON.stringify(value)} for knob ${key}: expected ${expected}`);
}
