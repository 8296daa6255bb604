import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Requirement } from '../requirements.js';
import { caseAreas, heldOf, tally } from './areas.js';
import type { Report } from './summary.js';

/** The fields of a committed report the table reads: stable across report formats. */
type TableReport = Pick<Report, 'candidate' | 'summary' | 'cases' | 'transparency'>;

/** Every `reports/<folder>/report.json` under `dir`, with its folder, in folder order. */
export function loadReports(dir: string): Array<{ folder: string; report: TableReport }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'report.json')))
    .map((entry) => entry.name)
    .sort()
    .map((folder) => ({ folder, report: JSON.parse(readFileSync(join(dir, folder, 'report.json'), 'utf8')) as TableReport }));
}

/**
 * The classes of attack a user of the broker is exposed to: each requirement area with at least
 * one attack that got through (`exposed`), and how many, most first.
 */
export function exposedAreas(report: TableReport, requirements: readonly Requirement[]): Array<{ area: string; attacks: number }> {
  const counts = new Map<string, number>();
  for (const c of report.cases) {
    if (c.kind !== 'attack' || c.failure !== 'exposed') continue;
    for (const area of caseAreas(c, requirements)) counts.set(area.name, (counts.get(area.name) ?? 0) + 1);
  }
  return [...counts].map(([area, attacks]) => ({ area, attacks })).sort((a, b) => b.attacks - a.attacks || a.area.localeCompare(b.area));
}

/** Preserved of what works direct, with changed and broken; "not measured" for a report without transparency. */
function transparencyCell(report: TableReport): string {
  const score = report.transparency?.score;
  if (score === undefined || score.transparency === null) return 'not measured';
  return `${score.preserved} of ${score.applicable} (${score.changed} changed, ${score.broken} broken)`;
}

/**
 * The README's table of brokers under test, generated from the committed reports so that it
 * cannot disagree with them: for each, attacks held of attacks run, controls passed, what could
 * not run, and the classes of attack its users are exposed to.
 */
export function brokerTable(reports: ReadonlyArray<{ folder: string; report: TableReport }>, requirements: readonly Requirement[]): string {
  const rows = reports.map(({ folder, report }) => {
    const { summary, cases } = report;
    const score = tally(cases);
    const notRun = summary.unsupported + summary.unsupported_environment;
    const exposed = exposedAreas(report, requirements);
    const cells = [
      `[${report.candidate.name}](reports/brokers/${folder}/report.md) ${report.candidate.version}`,
      heldOf({ attacks_held: summary.attacks_held, attacks_run: summary.attacks_total, attacks_held_by_adapter: score.attacks_held_by_adapter }),
      `${score.controls_passed} of ${score.controls_run}`,
      transparencyCell(report),
      `${summary.exposed} / ${summary.over_blocked} / ${summary.nonconformant} / ${summary.errors}`,
      String(notRun),
      exposed.length === 0 ? 'none' : exposed.map((entry) => `${entry.area} (${entry.attacks})`).join(', '),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| broker | attacks held | controls passed | transparency | exposed / over-blocked / nonconformant / errors | not run | exposed to (attacks through) |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export const TABLE_BEGIN = '<!-- broker-table:begin (npm run generate) -->';
export const TABLE_END = '<!-- broker-table:end -->';

/** The README with the table between its markers replaced; the markers must be there once each. */
export function withBrokerTable(readme: string, table: string): string {
  const begin = readme.indexOf(TABLE_BEGIN);
  const end = readme.indexOf(TABLE_END);
  if (begin < 0 || end < begin || readme.indexOf(TABLE_BEGIN, begin + 1) >= 0) {
    throw new Error(`README.md: expected one ${TABLE_BEGIN} followed by ${TABLE_END}`);
  }
  return `${readme.slice(0, begin + TABLE_BEGIN.length)}\n${table}\n${readme.slice(end)}`;
}
