// Inspection of one value the broker is about to pass on: bounds first, then normalisation of
// every string that may be rewritten, then detection. Detection searches each string in its
// normalised form (NFKC, inspect/normalise.ts); what passes is forwarded in its forwardable form
// (hidden characters and escape sequences stripped, the server's characters otherwise kept); what does not is refused whole by the caller, with the reason this returns. Everything a
// server says goes through the outbound stage (inspect/stage.ts), which calls this; the agent's
// arguments are inspected here directly.

import { mapTree, withText } from '../json/tree.js';
import { boundsProblem } from './bounds.js';
import { describeFindings, detect, type Finding, type FindingKind } from './detect.js';
import { withoutHidden } from './invisible.js';
import { forwardable, normalise } from './normalise.js';
import type { JsonValue } from '../types.js';

export type Inspection = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly problem: string };

const NOTHING_FIXED: ReadonlySet<JsonValue> = new Set();

/**
 * Inspects `value`, bounded over `measured` (depth and nodes) and `loose` (further strings), by
 * default the whole value. Every string and key is searched for `kinds` in its normalised form.
 * String values are returned in their forwardable form but for the `fixed` nodes, which are only judged; keys are never rewritten
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
      findings.push(...detect(normalise(node.value), kinds));
      return withText(node, forwardable(node.value));
    },
    (key) => {
      judge(key);
      return key;
    },
  );
  return findings.length === 0 ? { ok: true, value: inspected } : { ok: false, problem: `it carries ${describeFindings(findings)}` };
}
