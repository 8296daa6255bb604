import { loadRequirements } from '../requirements.js';
import { loadTaxonomies } from '../taxonomies.js';
import { renderMatrixPage } from './matrix-page.js';
import type { Report } from './summary.js';

/** report.html: one run's page, self-contained, with every case's transcript as report.json bounds it. */
export function renderHtml(report: Report): string {
  return renderMatrixPage([{ report }], loadRequirements(), { title: `mcp-gauntlet report: ${report.candidate.name}`, taxonomies: loadTaxonomies() });
}
