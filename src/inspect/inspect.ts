// Inspection of one value the broker is about to pass on: bounds first, then normalisation of
// every string that may be rewritten, then detection. What passes is forwarded in its normalised
// form; what does not is refused whole by the caller, with the reason this returns. Everything a
// server says goes through the outbound stage (inspect/stage.ts), which calls this; the agent's
// arguments are inspected here directly.

import { mapTree, withText } from '../json/tree.js';
import { boundsProblem } from './bounds.js';
import { describeFindings, detect, type Finding, type FindingKind } from './detect.js';
import { withoutHidden } from './invisible.js';
import { normalise } from './normalise.js';
import type { JsonValue } from '../types.js';

export type Inspection = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly problem: string };

const NOTHING_FIXED: ReadonlySet<JsonValue> = new Set();

/**
 * Inspects `value`, bounded over `measured` (depth and nodes) and `loose` (further strings), by
 * default the whole value. Every string and key is searched for `kinds`. String values are
 * returned normalised but for the `fixed` nodes, which are only judged; keys are never rewritten
 * either, since a renamed key is a different value. With `hidden` among the kinds, a fixed
 * string or key holding invisible characters is a finding: it can neither be passed on as it is
 * nor be rewritten.
 */
export function inspectValue(
  value: JsonValue,
  kinds: readonly FindingKind[],
  measured: JsonValue | undefined = value,
  loose: readonly string[] = [],
  fixed: ReadonlySet<JsonValue> = NOTHING_FIXED,
): Inspection {
  const bound = boundsProblem(measured, loose);
  if (bound !== null) return { ok: false, problem: `it exceeds an inspection bound: ${bound}` };
  const findings: Finding[] = [];
  const judge = (text: string): void => {
    if (kinds.includes('hidden') && withoutHidden(text) !== text) {
      findings.push({ kind: 'hidden', pattern: 'invisible or formatting characters where text cannot be rewritten', form: 'text' });
    }
    findings.push(...detect(normalise(text), kinds));
  };
  const inspected = mapTree(
    value,
    (node) => {
      if (fixed.has(node)) {
        judge(node.value);
        return node;
      }
      const text = normalise(node.value);
      findings.push(...detect(text, kinds));
      return withText(node, text);
    },
    (key) => {
      judge(key);
      return key;
    },
  );
  return findings.length === 0 ? { ok: true, value: inspected } : { ok: false, problem: `it carries ${describeFindings(findings)}` };
}
