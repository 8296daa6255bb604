import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './summary.js';

/** The files a report is made of, report.json first. */
export const REPORT_FILES = ['report.json', 'junit.xml', 'report.md', 'report.html'] as const;

const renderers: Record<(typeof REPORT_FILES)[number], (report: Report) => string> = {
  'report.json': (report) => `${JSON.stringify(report, null, 2)}\n`,
  'junit.xml': renderJunit,
  'report.md': renderMarkdown,
  'report.html': renderHtml,
};

/**
 * Writes report.json (the source of truth) and the views derived from it, each to a temporary
 * name first and renamed into place, so a reader never meets half a report.
 */
export async function writeReport(report: Report, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  for (const name of REPORT_FILES) {
    const path = join(dir, name);
    await writeFile(`${path}.partial`, renderers[name](report));
    await rename(`${path}.partial`, path);
  }
  return REPORT_FILES.map((name) => join(dir, name));
}
