import { describe, expect, it } from 'vitest';
import { loadProfiles } from '../../harness/profiles.js';
import { selectScenarios } from '../../harness/run/select.js';

describe('selecting scenarios', () => {
  it('runs a profile\'s scenarios, each attack with its control', () => {
    const core = loadProfiles().find((p) => p.name === 'core')!;
    const selected = selectScenarios({ profile: 'core' });
    expect(selected.map((s) => s.id).sort()).toEqual([...core.scenarios].sort());
    const ids = new Set(selected.map((s) => s.id));
    for (const s of selected) if (s.control !== undefined) expect(ids.has(s.control)).toBe(true);
  });

  it('takes a shard of the selection, and refuses a filter with a profile or an unknown profile', () => {
    const whole = selectScenarios({ filter: 'wth.*' }).map((s) => s.id);
    const parts = [1, 2].map((index) => selectScenarios({ filter: 'wth.*', shard: { index, count: 2 } }).map((s) => s.id));
    expect(parts.flat().sort()).toEqual([...whole].sort());
    expect(() => selectScenarios({ filter: 'wth.*', profile: 'core' })).toThrow(/give one/);
    expect(() => selectScenarios({ profile: 'no-such-profile' })).toThrow(/no profile named no-such-profile; profiles: .*core/);
  });

  it('takes the cases of one revision, each attack with its control of that revision', () => {
    const both = selectScenarios({ filter: 'smp.*' });
    const stateless = selectScenarios({ filter: 'smp.*', revision: '2026-07-28' });
    const base = selectScenarios({ filter: 'smp.*', revision: '2025-11-25' });
    expect(stateless.length).toBeGreaterThan(0);
    expect(stateless.every((s) => s.revision === '2026-07-28' && s.id.endsWith('.2026-07-28'))).toBe(true);
    expect(base.every((s) => s.revision === '2025-11-25' && !s.id.endsWith('.2026-07-28'))).toBe(true);
    expect([...base, ...stateless].map((s) => s.id).sort()).toEqual(both.map((s) => s.id).sort());
    const ids = new Set(stateless.map((s) => s.id));
    for (const s of stateless) if (s.control !== undefined) expect(ids.has(s.control)).toBe(true);
  });

  it('reads a filter naming a file by its id as that file\'s case of the revision asked for, with its control', () => {
    const ids = selectScenarios({ filter: 'smp.request-flood', revision: '2026-07-28' }).map((s) => s.id);
    expect(ids.sort()).toEqual(['smp.allowed-reaches-agent.2026-07-28', 'smp.request-flood.2026-07-28']);
    expect(selectScenarios({ filter: 'smp.request-flood', revision: '2025-11-25' }).map((s) => s.id).sort()).toEqual(['smp.allowed-reaches-agent', 'smp.request-flood']);
  });
});
