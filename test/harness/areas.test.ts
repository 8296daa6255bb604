import { describe, expect, it } from 'vitest';
import { areaStanding, areasOf, casesByArea, caseAreas, tally, UNLISTED } from '../../harness/report/areas.js';
import { renderMarkdown } from '../../harness/report/markdown.js';
import { reportOf } from './case-fixture.js';
import { loadRequirements } from '../../harness/requirements.js';
import type { CaseResult } from '../../harness/run/outcome.js';

const requirements = loadRequirements();
const attack = (id: string, reqs: string[], outcome: CaseResult['outcome'], failure?: CaseResult['failure'], control: CaseResult['outcome'] = 'pass') =>
  ({ id, kind: 'attack', requirements: reqs, outcome, control_outcome: control, ...(failure ? { failure } : {}) }) as CaseResult;
const control = (id: string, reqs: string[], outcome: CaseResult['outcome']) => ({ id, kind: 'control', requirements: reqs, outcome }) as CaseResult;

describe('cases by protection area', () => {
  it("reads the areas from docs/requirements.md's headings, in its order", () => {
    const areas = areasOf(requirements);
    expect(areas[0]).toEqual({ id: 'CLS', name: 'Classification' });
    expect(areas).toContainEqual({ id: 'NET', name: 'Address guard' });
    expect(new Set(areas.map((area) => area.id)).size).toBe(areas.length);
  });

  it('puts a case in every area it cites once, and one citing nothing known under UNLISTED', () => {
    expect(caseAreas({ requirements: ['PIN-1', 'PIN-2', 'NET-1'] }, requirements).map((area) => area.id)).toEqual(['PIN', 'NET']);
    expect(caseAreas({ requirements: ['XYZ-9'] }, requirements)).toEqual([UNLISTED]);
    const groups = casesByArea([attack('a', ['NET-1', 'PIN-1'], 'pass'), attack('b', ['PIN-2'], 'pass'), attack('c', [], 'pass')], requirements);
    expect(groups.map((group) => [group.area.id, group.cases.map((c) => c.id)])).toEqual([
      ['PIN', ['a', 'b']],
      ['NET', ['a']],
      ['OTHER', ['c']],
    ]);
  });

  it('scores held only with its control passing, and leaves unsupported cases out of what ran', () => {
    const cases = [
      attack('held', ['PIN-1'], 'pass'),
      attack('blocked-all', ['PIN-1'], 'pass', undefined, 'fail'),
      attack('through', ['PIN-1'], 'fail', 'exposed'),
      attack('skipped', ['PIN-1'], 'unsupported'),
      control('ok', ['PIN-1'], 'pass'),
      control('broken', ['PIN-1'], 'fail'),
    ];
    const score = tally(cases);
    expect(score).toEqual({ attacks_held: 1, attacks_held_by_adapter: 0, attacks_run: 3, controls_passed: 1, controls_run: 2, exposed: 1 });
    expect(areaStanding(score)).toBe('exposed');
    expect(areaStanding(tally(cases.slice(0, 2)))).toBe('partial');
    expect(areaStanding(tally(cases.slice(0, 1)))).toBe('held');
    expect(areaStanding(tally([cases[3]!]))).toBe('none');
  });
});

describe("report.md's summary by protection area", () => {
  it('lists each area with held of run, exposed and controls, as the shared grouping counts them', () => {
    const cases = [
      { ...attack('a', ['PIN-1', 'NET-1'], 'fail', 'exposed'), findings: [], notes: [] },
      { ...attack('b', ['PIN-2'], 'pass'), findings: [], notes: [] },
      { ...control('c', ['PIN-3'], 'pass'), findings: [], notes: [] },
    ] as CaseResult[];
    const report = reportOf(cases);
    const markdown = renderMarkdown(report, requirements);
    expect(markdown).toContain('Controls passed: 1 of 1');
    expect(markdown).toContain('| Pinning (PIN) | 1 of 2 | 1 | 1 of 1 |');
    expect(markdown).toContain('| Address guard (NET) | 0 of 1 | 1 | 0 of 0 |');
    // In the document's order: Pinning is listed before the address guard.
    expect(markdown.indexOf('Pinning (PIN)')).toBeLessThan(markdown.indexOf('Address guard (NET)'));
  });
});
