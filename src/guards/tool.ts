// Guards Load runs on each tool, in this order. Each decides on one protection only, so that
// disabling one shows what that protection alone prevents.

import { canonicalJson } from '../json/canonical.js';
import { descriptionHash, schemaFingerprint } from '../load/fingerprint.js';
import { hintContradiction } from './hints.js';
import type { ToolGuard, ToolVerdict } from './types.js';
import type { JsonObject } from '../types.js';

const PASS: ToolVerdict = { kind: 'pass' };
const refuse = (reason: string): ToolVerdict => ({ kind: 'refuse', reason });

export const stillOffered: ToolGuard = {
  name: 'still-offered',
  check: ({ live }) => (live === undefined ? refuse('the server no longer offers it') : PASS),
};

export const classified: ToolGuard = {
  name: 'classified',
  check: ({ rule }) => (rule === undefined ? refuse('the operator has no rule for it') : PASS),
};

export const pinned: ToolGuard = {
  name: 'pinned',
  check: ({ pin }) => (pin === undefined ? refuse('the manifest does not pin it') : PASS),
};

// The pin guards compare only what exists on both sides; a missing side is still-offered's and
// pinned's to refuse.
export const schemaPin: ToolGuard = {
  name: 'schema-pin',
  check: ({ live, pin }) =>
    live !== undefined && pin !== undefined && schemaFingerprint(live.inputSchema).hash !== pin.schemaHash
      ? refuse('the input schema changed since the pin')
      : PASS,
};

// A pin without output_schema records a tool listed without one, so one appearing, changing or
// going away is a change: each alters what the tool's results promise (PIN-9).
export const outputSchemaPin: ToolGuard = {
  name: 'output-schema-pin',
  check: ({ live, pin }) =>
    live !== undefined && pin !== undefined && canonicalOrNull(live.outputSchema) !== canonicalOrNull(pin.outputSchema)
      ? refuse('the output schema changed since the pin')
      : PASS,
};

/** The canonical text of a pinned object, or null for one that is absent. */
const canonicalOrNull = (value: JsonObject | undefined): string | null =>
  value === undefined ? null : canonicalJson(value);

// The words the model reads of a tool: its description and its title (display name). A pin
// without title_hash records a tool listed without a title, so one appearing is a change too.
export const descriptionPin: ToolGuard = {
  name: 'description-pin',
  check({ live, pin }) {
    if (live === undefined || pin === undefined) return PASS;
    if (descriptionHash(live.description) !== pin.descriptionHash) return refuse('the description changed since the pin, and a description is model input');
    const title = live.title === undefined ? undefined : descriptionHash(live.title);
    return title !== pin.titleHash ? refuse('the title changed since the pin, and a title is model input') : PASS;
  },
};

// How a tool may be run (`execution.taskSupport`) is part of what the operator reviewed, as its
// output schema is; a pin without `execution` records a tool listed without one.
export const executionPin: ToolGuard = {
  name: 'execution-pin',
  check: ({ live, pin }) =>
    live !== undefined && pin !== undefined && canonicalOrNull(live.execution) !== canonicalOrNull(pin.execution)
      ? refuse('how it may be run (execution) changed since the pin')
      : PASS,
};

export const hintConsistency: ToolGuard = {
  name: 'hint-consistency',
  check({ live, pin, rule }) {
    // Without an effect (classified disabled) there is no classification to contradict.
    if (rule === undefined) return PASS;
    const claims = [
      ['the pinned annotations', pin?.annotations],
      ['the annotations the server sends now', live?.annotations],
    ] as const;
    const contradictions: string[] = [];
    for (const [which, annotations] of claims) {
      const contradiction = hintContradiction(rule.effect, annotations);
      if (contradiction !== null) contradictions.push(`${which} ${contradiction}`);
    }
    if (contradictions.length === 0) return PASS;
    const sentence = `the operator classified it ${rule.effect}, but ${contradictions.join(', and ')}`;
    return rule.allowHintMismatch ? { kind: 'overridden', note: sentence } : refuse(sentence);
  },
};

export const effectContractSound: ToolGuard = {
  name: 'effect-contract',
  // A contract whose read-back cannot run would leave every write unverifiable; the write tool is
  // refused at Load instead of failing each call after it ran.
  check({ rule, rules, listed }) {
    const reader = rule?.contract?.readbackTool;
    if (reader === undefined) return PASS;
    if (rules.get(reader)?.effect !== 'read_only') return refuse(`its effect contract reads back with ${JSON.stringify(reader)}, which the operator has not classified read_only`);
    return listed.has(reader) ? PASS : refuse(`its effect contract reads back with ${JSON.stringify(reader)}, which the server does not list`);
  },
};
