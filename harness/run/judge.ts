import { checksOf, triggered } from '../expect/registry.js';
import type { Expectation, Fail, Finding, Hook, Judged } from '../expect/types.js';
import type { StepRecord } from './steps.js';

export interface Judgement {
  findings: Finding[];
  /** Checks not taken because the candidate lacks the hook they read, with the hook. */
  unchecked: Array<{ check: string; hook: Hook }>;
  /** What the modules noted while judging, which decides nothing. */
  notes: string[];
}

/** Each call step's bound: the next call step to the same server tool starts where it ends. */
function boundCalls(steps: readonly StepRecord[]): void {
  const calls = steps.filter((record): record is StepRecord<'call'> => record.block === 'call');
  calls.forEach(({ facts }, index) => {
    facts.next = calls.slice(index + 1).find((later) => later.facts.serverTool === facts.serverTool)?.facts.mark;
  });
}

/**
 * Judges every recorded step with the expectation modules it triggers, in registry order, over
 * the ledger as it stands once everything has stopped. Pure: the findings follow from the records.
 */
export function judge(steps: readonly StepRecord[], judged: Judged, hooks: ReadonlySet<Hook>): Judgement {
  boundCalls(steps);
  const findings: Finding[] = [];
  const unchecked: Judgement['unchecked'] = [];
  const notes: string[] = [];
  const noting: Judged = { ...judged, note: (text) => notes.push(text) };
  for (const { block, expect, facts, unfinished } of steps) {
    for (const module of triggered(block, expect) as Expectation[]) {
      // An unfinished call shows harm by what arrived and nothing else: a module that needed an
      // observation of the broker afterwards has none.
      if (unfinished && module.observe !== undefined) continue;
      if (module.hook !== undefined && !hooks.has(module.hook)) {
        for (const check of checksOf(module, expect)) unchecked.push({ check, hook: module.hook });
        continue;
      }
      const fail: Fail = (check, expectation, expected, observed, step = facts.label) => {
        const declared = module.checks[check];
        // A check id is a stable name in every report: one a module did not declare is a bug.
        if (declared === undefined) throw new Error(`expectation ${module.name} reported undeclared check ${check}`);
        if (unfinished && declared.class !== 'harm' && !module.judgesUnfinished) return;
        findings.push({ check, class: declared.class, step, expectation, expected, observed });
      };
      module.judge(expect, facts, noting, fail);
    }
  }
  return { findings, unchecked, notes };
}
