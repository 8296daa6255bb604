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

  it('refuses a README without exactly one pair of markers', () => {
    expect(() => withBrokerTable('no markers', '')).toThrow(/expected one/);
    expect(() => withBrokerTable(`${TABLE_BEGIN}${TABLE_BEGIN}${TABLE_END}`, '')).toThrow(/expected one/);
  });
});
