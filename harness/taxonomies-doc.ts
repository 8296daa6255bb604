import type { Taxonomy, TaxonomyClass } from './taxonomies.js';

/**
 * docs/taxonomies.md, generated from taxonomies/*.yaml by `npm run generate`: each taxonomy cited
 * from its own publication, each class with the scenarios that judge a broker on it, or why none
 * can, and every class the catalogue still lacks listed openly.
 */

/** Table cells: one line, no column break. */
const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

const scenariosCell = (entry: TaxonomyClass): string => (entry.scenarios ?? []).map((glob) => `\`${glob}\``).join(', ');

function standingOf(entry: TaxonomyClass): string {
  if (entry.scenarios !== undefined) return 'mapped';
  return entry.missing === true ? '**missing**' : 'not judgeable';
}

function taxonomySection(taxonomy: Taxonomy): string[] {
  const { publication } = taxonomy;
  const mapped = taxonomy.classes.filter((entry) => entry.scenarios !== undefined).length;
  const missing = taxonomy.classes.filter((entry) => entry.missing === true).length;
  const unjudgeable = taxonomy.classes.length - mapped - missing;
  return [
    `## ${taxonomy.name}`,
    '',
    `${publication.authors}, "${publication.title}", <${publication.url}>; ${publication.version}. Classes read from <${publication.source}>. Mapping: [taxonomies/${taxonomy.id}.yaml](../taxonomies/${taxonomy.id}.yaml).`,
    '',
    `${taxonomy.classes.length} classes: ${mapped} mapped to scenarios, ${missing} missing from the catalogue, ${unjudgeable} no broker can be judged on.`,
    '',
    '| class | title | standing | scenarios | how judged, or why not |',
    '|---|---|---|---|---|',
    ...taxonomy.classes.map((entry) => `| ${cell(entry.id)} | ${cell(entry.title)} | ${standingOf(entry)} | ${scenariosCell(entry)} | ${cell(entry.note ?? entry.reason ?? '')} |`),
    '',
  ];
}

export function taxonomiesDoc(taxonomies: readonly Taxonomy[]): string {
  const missing = taxonomies.flatMap((taxonomy) => taxonomy.classes.filter((entry) => entry.missing === true).map((entry) => ({ taxonomy, entry })));
  return [
    '<!-- Generated from taxonomies/*.yaml by `npm run generate` (harness/taxonomies-doc.ts); do not edit by hand. -->',
    '',
    '# Coverage by public taxonomy',
    '',
    'Users read a broker\'s coverage through the attack taxonomies published for MCP. Each taxonomy below is',
    'mapped, class by class, to the scenarios whose harm a broker must prevent (`taxonomies/<id>.yaml`, checked',
    'by `test/harness/taxonomies.test.ts`): a class lists scenario ids or globs, and the cases of every MCP',
    'revision a listed file runs under count. A class no broker can be judged on (the model\'s own behaviour,',
    'or something that never crosses a broker) says why; a class a broker could be judged on that the catalogue',
    'lacks is **missing**, with what is to be built. No class is invented here: each is named as its',
    'publication names it. `gauntlet list --taxonomies [--json]` gives each class with the cases its ids and',
    'globs name in the catalogue as it stands.',
    '',
    'Every report scores each taxonomy from its cases (report.md, report.html, and `taxonomies` in report.json):',
    'a class is **held** when every attack of it judged in the run was held (passed while its control passed),',
    '**exposed** when one got through, **not held** when one failed otherwise (over-blocked, nonconformant, an',
    'error), and **not run** when none of its attacks was judged. "Held 9 of 10 OWASP MCP Top 10 classes"',
    'counts of the classes a broker can be judged on, the missing ones among them.',
    '',
    '## Missing from the catalogue',
    '',
    ...(missing.length === 0 ? ['None.'] : missing.map(({ taxonomy, entry }) => `- ${taxonomy.name} ${entry.id}, ${entry.title}: ${cell(entry.reason ?? '')}`)),
    '',
    ...taxonomies.flatMap(taxonomySection),
  ].join('\n');
}
