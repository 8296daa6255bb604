import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadProfiles, parseProfile, profileDigest } from '../../harness/profiles.js';
import { scoreProfile } from '../../harness/report/assess.js';
import { judgedCase } from './case-fixture.js';

/**
 * The digest of every released profile version. A frozen list is never edited: a change is a new
 * version, added here beside the old one. A test failing here means a frozen list was edited.
 */
const RELEASED: Record<string, string> = {
  'core@1': 'sha256:eb197866b392c2a9e86cf22adce365e0fa76cb2a16e3d2ea733bb1d388e50a86',
  'pinning-runtime@1': 'sha256:8d06aa41ff8e7ba5674f5020efd6ce5fd45e57a4ba27126a05381b263ce2f99e',
  'guarded-gateway@1': 'sha256:829ec876b1641c550e9841cf32ed1463318dbd0c8fc74cdc59f6a45d8471e4eb',
  'capability-broker@1': 'sha256:867069f0ab07fc5605a2199d337e8f31d49c988bdfbd9ae83b3576f53d8a9fea',
  'governance-gateway@1': 'sha256:7b86db160d1ddcb6f8b0a51e00989eb21efd4d0d74b5642eac4d44aec69ebb2f',
  'full@1': 'sha256:b815c6de7cdba8d6087b47a9c7420dbce2f8d83e6449553839b9291490235e62',
};

const profiles = loadProfiles();
const catalogue = new Map(loadCatalogue().map((s) => [s.id, s]));

describe('profiles', () => {
  it('are the released versions, unedited', () => {
    expect(Object.fromEntries(profiles.map((p) => [`${p.name}@${p.version}`, p.digest]))).toEqual(RELEASED);
  });

  it('name only scenarios of the catalogue, and each attack with its control', () => {
    for (const profile of profiles) {
      const ids = new Set(profile.scenarios);
      for (const id of profile.scenarios) {
        const scenario = catalogue.get(id);
        expect(scenario, `${profile.name}: ${id}`).toBeDefined();
        if (scenario?.control !== undefined) expect(ids.has(scenario.control), `${profile.name}: ${id} without ${scenario.control}`).toBe(true);
      }
    }
  });

  it('refuse a list edited under the same version', () => {
    const core = profiles.find((p) => p.name === 'core')!;
    expect(() => parseProfile({ ...core, scenarios: core.scenarios.slice(1) }, 'core.json')).toThrow(/does not match its digest/);
    expect(parseProfile({ ...core, scenarios: core.scenarios.slice(1), digest: profileDigest(core.scenarios.slice(1)) }, 'core.json').scenarios).toHaveLength(core.scenarios.length - 1);
    expect(() => parseProfile({ ...core, reason: 'x' }, 'core.json')).toThrow(/not a profile/);
  });

  it('are scored on their own scenarios only: newer scenarios run but do not count', () => {
    const profile = { name: 'p', version: 1, frozen: '2026-01-01', description: 'd', selected_by: 's', scenarios: ['a.held', 'a.leak', 'c.ok', 'a.gone'], digest: '' };
    const cases = [
      judgedCase('a.held', 'pass', { control: 'c.ok' }),
      judgedCase('a.leak', 'fail', { control: 'c.ok', checks: ['call.answer_excludes'] }),
      judgedCase('c.ok', 'pass', { kind: 'control' }),
      judgedCase('a.newer', 'fail', { control: 'c.ok', checks: ['call.answer_excludes'] }),
    ];
    for (const c of cases) if (c.control) c.control_outcome = 'pass';
    expect(scoreProfile(profile, cases)).toEqual({ name: 'p', version: 1, attacks_held: 1, attacks_run: 2, controls_passed: 1, controls_run: 1, missing: 1 });
  });
});
