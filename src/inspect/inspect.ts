// Inspection of one value the broker is about to pass on: bounds first, then normalisation of
// every string, then detection. What passes is forwarded in its normalised form; what does not
// is refused whole by the caller, with the reason this returns.

import { object } from '../json/tree.js';
import { boundsProblem } from './bounds.js';
import { describeFindings, detect, type Finding, type FindingKind } from './detect.js';
import { normalise } from './normalise.js';
import type { JsonValue } from '../types.js';

export type Inspection = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly problem: string };

/**
 * Inspects `value` (strings, keys included, all detected on; string values normalised in what is
 * returned; keys are kept, since a renamed key is a different value). `measured` is the part the
 * depth and node bounds apply to, when not the whole value.
 */
export function inspectValue(value: JsonValue, kinds: readonly FindingKind[], measured: JsonValue | undefined = value, loose: readonly string[] = []): Inspection {
  const bound = boundsProblem(measured, loose);
  if (bound !== null) return { ok: false, problem: `it exceeds an inspection bound: ${bound}` };
  const findings: Finding[] = [];
  const walk = (v: JsonValue): JsonValue => {
    switch (v.kind) {
      case 'string': {
        const text = normalise(v.value);
        findings.push(...detect(text, kinds));
        return text === v.value ? v : { kind: 'string', value: text };
      }
      case 'array':
        return { kind: 'array', items: v.items.map(walk) };
      case 'object':
        return object(v.entries.map(([key, item]) => {
          findings.push(...detect(normalise(key), kinds));
          return [key, walk(item)] as const;
        }));
      default:
        return v;
    }
  };
  const inspected = walk(value);
  return findings.length === 0 ? { ok: true, value: inspected } : { ok: false, problem: `it carries ${describeFindings(findings)}` };
}
