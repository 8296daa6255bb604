import { describe, expect, it } from 'vitest';
import { withFlaw } from '../../harness/run/flaws.js';
import type { OperatorConfig } from '../../harness/scenario/types.js';

const operator: OperatorConfig = { tools: { search_notes: { effect: 'read_only' }, read_note: { effect: 'read_only', permission: 'notes.read' } }, prefix: 'nt' };

describe('configuration flaws', () => {
  it('misspells the first rule in the neutral form, so every candidate gets the same misspelling', () => {
    expect(withFlaw(operator, 'misspelled-rule')).toEqual({
      operator: { tools: { search_notess: { effect: 'read_only' }, read_note: { effect: 'read_only', permission: 'notes.read' } }, prefix: 'nt' },
    });
  });

  it('hands every other flaw to the adapter, leaving the neutral form as written', () => {
    for (const flaw of ['unknown-effect', 'missing-effect', 'unknown-rule-field', 'malformed-env'] as const) {
      expect(withFlaw(operator, flaw)).toEqual({ operator, flaw });
    }
  });
});
