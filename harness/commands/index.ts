import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { loadRequirements } from '../requirements.js';
import { renderMatrixPage } from '../report/matrix-page.js';
import type { PageRun } from '../report/page-summary.js';
import type { Report } from '../report/summary.js';
import { parseOptions } from '../run/options.js';
import type { TranscriptBound } from '../run/transcript.js';
import { loadTaxonomies } from '../taxonomies.js';

/**
 * The index holds every candidate's cases, so it keeps less of each transcript than a run's own
 * report.html, which each case links to for the rest.
 */
export const INDEX_BOUNDS: Record<'failing' | 'passing', TranscriptBound> = {
  failing: { line_chars: 600, side_chars: 1_800 },
  passing: { line_chars: 120, side_chars: 400 },
};

const REPORT_FORMAT_PREFIX = 'mcp-gauntlet-report/';

/** Every DIR/<candidate>/report.json, in folder-name order, each with a link to its report.html. */
async function readRuns(dir: string, out: string): Promise<PageRun[]> {
  const folders = (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const runs: PageRun[] = [];
  for (const folder of folders) {
    const file = join(dir, folder, 'report.json');
    if (!existsSync(file)) continue;
    let report: Report;
    try {
      report = JSON.parse(await readFile(file, 'utf8')) as Report;
    } catch (error) {
      throw new Error(`${file} is not JSON: ${(error as Error).message}`);
    }
    if (typeof report.format !== 'string' || !report.format.startsWith(REPORT_FORMAT_PREFIX) || !Array.isArray(report.cases)) {
      throw new Error(`${file} is not an mcp-gauntlet report`);
    }
    const html = join(dir, folder, 'report.html');
    runs.push({ report, ...(existsSync(html) ? { link: relative(dirname(out), html).split(sep).join('/') } : {}) });
  }
  return runs;
}

/** `gauntlet index`: reports/index.html, every candidate's run side by side. */
export async function indexCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions({ args: argv, options: { reports: { type: 'string', default: 'reports' }, out: { type: 'string' } } });
  const dir = resolve(values.reports);
  const out = resolve(values.out ?? join(dir, 'index.html'));
  const runs = await readRuns(dir, out);
  if (runs.length === 0) {
    process.stderr.write(`mcp-gauntlet: no */report.json under ${dir}\n`);
    return 2;
  }
  const page = renderMatrixPage(runs, loadRequirements(), {
    title: 'mcp-gauntlet: candidates side by side',
    transcriptBound: (c) => (c.outcome === 'fail' || c.outcome === 'error' ? INDEX_BOUNDS.failing : INDEX_BOUNDS.passing),
    taxonomies: loadTaxonomies(),
  });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, page);
  process.stderr.write(`mcp-gauntlet: index of ${runs.length} candidate(s) (${runs.map((run) => run.report.candidate.name).join(', ')}): ${out}\n`);
  return 0;
}
