import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokerTable, exposedAreas, loadReports, TABLE_BEGIN, TABLE_END, withBrokerTable } from '../../harness/report/broker-table.js';
import { packageRoot } from '../../harness/paths.js';
import { loadRequirements } from '../../harness/requirements.js';
import type { CaseResult } from '../../harness/run/outcome.js';

const requirements = loadRequirements();
const attack = (id: string, reqs: string[], failure?: CaseResult['failure']) =>
  ({ id, kind: 'attack', requirements: reqs, outcome: failure ? 'fail' : 'pass', ...(failure ? { failure } : {}) }) as CaseResult;

describe("the README's broker table", () => {
  it('matches the committed reports (npm run generate rewrites it)', () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const table = brokerTable(loadReports(join(packageRoot, 'reports', 'brokers')), requirements);
    expect(readme).toBe(withBrokerTable(readme, table));
    // Every committed report has its row, and the reference holds every attack it ran.
    for (const { folder, report } of loadReports(join(packageRoot, 'reports', 'brokers'))) {
      expect(table).toContain(`(reports/brokers/${folder}/report.md)`);
      if (folder === 'reference') expect(report.summary.attacks_held).toBe(report.summary.attacks_total);
    }
  });

  it('names the areas of exposed attacks only, counting each attack once per area', () => {
    const areas = exposedAreas(
      {
        candidate: { name: 'x', version: '1', adapterProtocol: 'gauntlet-candidate/1', claims: [] } as never,
        summary: {} as never,
        cases: [attack('a', ['PIN-1', 'PIN-2'], 'exposed'), attack('b', ['NET-1'], 'over-blocked'), attack('c', ['NET-2']), attack('d', ['PIN-3'], 'exposed')],
      },
      requirements,
    );
    expect(areas).toEqual([{ area: 'Pinning', attacks: 2 }]);
  });

  it('shows transparency as preserved of what works direct, and "not measured" for a report without it', () => {
    const report = (transparency?: object) => ({
      folder: 'x',
      report: {
        candidate: { name: 'x', version: '1', adapterProtocol: 'gauntlet-candidate/2', claims: [] } as never,
        summary: { attacks_held: 0, attacks_total: 0, exposed: 0, over_blocked: 0, nonconformant: 0, errors: 0, unsupported: 0, unsupported_environment: 0 } as never,
        cases: [],
        ...(transparency === undefined ? {} : { transparency: transparency as never }),
      },
    });
    const score = { preserved: 97, changed: 34, broken: 3, not_applicable: 7, unsupported: 0, applicable: 134, transparency: 97 / 134 };
    const [, , measured] = brokerTable([report({ score, suites: [], results: [], duration_ms: 1 })], requirements).split('\n');
    expect(measured?.split(' | ')[3]).toBe('97 of 134 (34 changed, 3 broken)');
    const [, , unmeasured] = brokerTable([report()], requirements).split('\n');
    expect(unmeasured?.split(' | ')[3]).toBe('not measured');
  });

  it('refuses a README without exactly one pair of markers', () => {
    expect(() => withBrokerTable('no markers', '')).toThrow(/expected one/);
    expect(() => withBrokerTable(`${TABLE_BEGIN}${TABLE_BEGIN}${TABLE_END}`, '')).toThrow(/expected one/);
  });
});
