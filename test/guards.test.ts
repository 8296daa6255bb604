import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/catalogue.js';
import { referenceCandidate } from '../harness/candidates/reference.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../harness/run/execute.js';
import { runSuite } from '../harness/run/suite.js';

/**
 * Each guard of the reference broker, and the scenarios that must fail once it is left out. If a
 * guard could be removed with every scenario still passing, either the guard is dead code or the
 * catalogue has a hole; both are defects.
 */
const NEEDED_BY: Record<string, string[]> = {
  'listing-bounds': ['lst.endless-pages', 'lst.repeating-cursor', 'lst.tool-flood'],
  'listing-unique': ['lst.duplicate-same-page', 'lst.duplicate-across-pages'],
  classified: ['cls.unclassified-tool-withheld'],
  pinned: ['pin.unpinned-tool'],
  'still-offered': ['pin.dropped-tool'],
  'description-pin': ['pin.description-reworded'],
  'schema-pin': ['pin.schema-loosened', 'pin.float-drift'],
  'hint-consistency': ['hnt.destructive-hint-refuses', 'hnt.read-only-class-without-hint'],
  'operator-annotations': ['hnt.readonly-hint-never-relaxes', 'cls.operator-class-shown'],
  'operator-description': ['dsc.override-replaces-poisoned'],
  'registered-calls-only': ['cls.unclassified-tool-withheld'],
  'nothing-registered': ['cls.nothing-registered-fails-closed'],
};

const scenarios = loadCatalogue();

describe('every guard of the reference broker is needed', () => {
  it.each(Object.entries(NEEDED_BY))('without %s the scenarios it protects fail', async (guard, ids) => {
    const selected = scenarios.filter((s) => ids.includes(s.id));
    expect(selected.map((s) => s.id).sort()).toEqual([...ids].sort());
    const report = await runSuite(referenceCandidate({ disabledGuards: [guard] }), selected, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    for (const result of report.cases) expect(result.outcome, `${result.id} without ${guard}`).toBe('fail');
  });
});
