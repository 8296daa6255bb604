import { describe, expect, it } from 'vitest';
import { assess } from '../../harness/report/assess.js';
import { renderHtml } from '../../harness/report/html.js';
import { renderMarkdown } from '../../harness/report/markdown.js';
import { describeCoverage, taxonomyCoverage } from '../../harness/report/taxonomy-coverage.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { loadTaxonomies, type Taxonomy } from '../../harness/taxonomies.js';
import { judgedCase, reportOf } from './case-fixture.js';

// Coverage by public taxonomy: what a run's cases make of each class, and every report view shows it.

const publication = { title: 't', authors: 'a', url: 'https://example.org/', source: 'https://example.org/', version: 'v1' };
const taxonomy: Taxonomy = {
  id: 'toy',
  name: 'Toy Top 6',
  publication,
  classes: [
    { id: 'T1', title: 'held under both revisions', scenarios: ['a.one'] },
    { id: 'T2', title: 'one attack exposed', scenarios: ['b.*'] },
    { id: 'T3', title: 'filtered out of the run', scenarios: ['c.gone'] },
    { id: 'T4', title: 'the catalogue lacks it', missing: true, reason: 'To be built: a scenario of it' },
    { id: 'T5', title: 'no broker can be judged on it', reason: 'It is the model\u2019s own behaviour, which no broker sees' },
    { id: 'T6', title: 'held only by refusing everything', scenarios: ['f.one'] },
  ],
};

/** An attack with its control's outcome in the same run. */
const attack = (id: string, outcome: CaseResult['outcome'], control: CaseResult['outcome'] = 'pass'): CaseResult => ({ ...judgedCase(id, outcome), control_outcome: control });

const cases = [
  attack('a.one', 'pass'),
  attack('a.one.2026-07-28', 'pass'),
  judgedCase('a.one-control', 'pass', { kind: 'control' }),
  attack('b.held', 'pass'),
  attack('b.through', 'fail'),
  attack('f.one', 'pass', 'fail'),
  judgedCase('f.one-control', 'fail', { kind: 'control' }),
];

describe('coverage by taxonomy', () => {
  it('scores each class from the attacks its scenarios name, across revisions', () => {
    const [coverage] = taxonomyCoverage(cases, [taxonomy]);
    expect(coverage!.classes.map((c) => [c.id, c.standing, c.attacks_held, c.attacks_run])).toEqual([
      ['T1', 'held', 2, 2],
      ['T2', 'exposed', 1, 2],
      ['T3', 'not-run', 0, 0],
      ['T4', 'missing', 0, 0],
      ['T5', 'not-judgeable', 0, 0],
      ['T6', 'not-held', 0, 1],
    ]);
    expect(coverage!.judgeable).toBe(5);
    expect(describeCoverage(coverage!)).toBe('held 1 of 5 Toy Top 6 classes (1 exposed, 1 not held, 1 not run, 1 missing); 1 no broker can be judged on');
  });

  it('a class is held only when every attack of it judged is held, an unsupported one aside', () => {
    const unsupported = judgedCase('b.through', 'unsupported');
    const [coverage] = taxonomyCoverage([attack('b.held', 'pass'), unsupported], [taxonomy]);
    expect(coverage!.classes.find((c) => c.id === 'T2')).toMatchObject({ standing: 'held', attacks_held: 1, attacks_run: 1 });
  });

  it('is added to report.json when assessed, and to report.md and report.html even for a report written without it', () => {
    const report = reportOf(cases);
    const assessed = assess(report, { profiles: [], catalogue: [], taxonomies: [taxonomy] });
    expect(assessed.taxonomies?.map((t) => [t.id, t.counts.held, t.judgeable])).toEqual([['toy', 1, 5]]);
    expect(report.taxonomies).toBeUndefined();
    const markdown = renderMarkdown(report, [], [taxonomy]);
    expect(markdown).toContain('## By public taxonomy');
    expect(markdown).toContain('**held 1 of 5 Toy Top 6 classes');
    expect(markdown).toContain('T2 exposed (1 of 2 attacks held); T3 not run; T4 missing; T6 not held (0 of 1 attacks held)');
    const html = renderHtml(report);
    expect(html).toContain('id="taxonomy-summary"');
    for (const { name } of loadTaxonomies()) expect(html).toContain(name.replace(/&/g, '&amp;'));
  });
});
