import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './summary.js';

/** Writes report.json (the source of truth) and the views derived from it. */
export async function writeReport(report: Report, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = {
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'junit.xml': renderJunit(report),
    'report.md': renderMarkdown(report),
    'report.html': renderHtml(report),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return Object.keys(files).map((name) => join(dir, name));
}
