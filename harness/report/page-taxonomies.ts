import type { Taxonomy } from '../taxonomies.js';
import { escapeHtml } from './page-text.js';
import type { PageRun } from './page-summary.js';
import { classesNotHeld, describeCoverage, standingWords, taxonomyCoverage } from './taxonomy-coverage.js';
import type { TaxonomyCoverage } from './taxonomy-coverage-types.js';

/**
 * The report pages' coverage by public taxonomy (docs/taxonomies.md): a row per taxonomy, a column
 * per run, each cell classes held of classes a broker can be judged on, coloured as the area
 * tiles are, its title naming each class not held. Computed from the cases, so a report written
 * before the section gains it.
 */

function standingOf(coverage: TaxonomyCoverage): 'held' | 'exposed' | 'partial' | 'none' {
  const { counts } = coverage;
  if (counts.held + counts.exposed + counts['not-held'] === 0) return 'none';
  if (counts.exposed > 0) return 'exposed';
  return counts.held === coverage.judgeable ? 'held' : 'partial';
}

function cell(coverage: TaxonomyCoverage): string {
  const notHeld = classesNotHeld(coverage).map((c) => `${c.id}: ${standingWords(c.standing)}`);
  const title = [describeCoverage(coverage), ...notHeld].join('\n');
  return `<td class="${standingOf(coverage)}" title="${escapeHtml(title)}">${coverage.counts.held} of ${coverage.judgeable}</td>`;
}

export function taxonomySection(runs: readonly PageRun[], taxonomies: readonly Taxonomy[]): string {
  if (taxonomies.length === 0) return '';
  const perRun = runs.map(({ report }) => taxonomyCoverage(report.cases, taxonomies));
  const rows = taxonomies.map((taxonomy, row) => `<tr><th>${escapeHtml(taxonomy.name)}</th>${perRun.map((coverages) => cell(coverages[row]!)).join('')}</tr>`);
  const heads = runs.map(({ report }) => `<th>${escapeHtml(report.candidate.name)}</th>`).join('');
  // One run's page also lists, under the table, every class not held with its standing.
  const details =
    runs.length === 1
      ? perRun[0]!
          .map((coverage) => {
            const items = classesNotHeld(coverage).map((c) => `<li class="${c.standing === 'exposed' ? 'exposed' : 'muted'}"><strong>${escapeHtml(c.id)}</strong> ${escapeHtml(c.title)}: ${standingWords(c.standing)}${c.attacks_run > 0 ? ` (${c.attacks_held} of ${c.attacks_run} attacks held)` : ''}</li>`);
            return items.length === 0 ? '' : `<details><summary>${escapeHtml(coverage.name)}: ${items.length} class(es) not held</summary><ul>${items.join('')}</ul></details>`;
          })
          .join('')
      : '';
  return `<section id="taxonomy-summary">
<h2>By public taxonomy <span class="muted">classes held of the classes a broker can be judged on (docs/taxonomies.md) · hover a cell for the rest</span></h2>
<table class="summary"><thead><tr><th></th>${heads}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${details}
</section>`;
}
