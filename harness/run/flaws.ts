import type { AdapterFlaw, ConfigFlaw, OperatorConfig } from '../scenario/types.js';

/** What one start with a configuration flaw hands the candidate. */
export interface FlawedSession {
  operator: OperatorConfig;
  /** The flaw the adapter must write itself, when the neutral form cannot carry it. */
  flaw?: AdapterFlaw;
}

/**
 * The operator configuration for a start with `flaw`. A misspelled rule is expressible in the
 * neutral form, so the harness makes it once for every candidate: the first rule names its tool
 * with an `s` added (write_note becomes write_notes), a name the server does not list.
 */
export function withFlaw(operator: OperatorConfig, flaw: ConfigFlaw): FlawedSession {
  if (flaw !== 'misspelled-rule') return { operator, flaw };
  const [first, ...rest] = Object.entries(operator.tools);
  if (first === undefined) throw new Error('a misspelled-rule flaw needs a rule to misspell');
  const [tool, rule] = first;
  return { operator: { ...operator, tools: Object.fromEntries([[`${tool}s`, rule], ...rest]) } };
}
