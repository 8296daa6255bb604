import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from './paths.js';
import { matchesGlob } from './scenario/load.js';
import { describeSchemaErrors } from './schema-errors.js';

/**
 * The public attack taxonomies users read coverage through (OWASP MCP Top 10, MCPSecBench, MSB,
 * MCP-SafetyBench, CoSAI's MCP threats), each mapped to the scenarios that judge a broker on its
 * classes: one file per taxonomy under taxonomies/, validated against taxonomies/taxonomy.schema.json.
 */

/** One class of a taxonomy, as its publication names it. */
export interface TaxonomyClass {
  id: string;
  title: string;
  url?: string;
  /** Scenario ids or globs of the files whose attacks judge a broker on the class. */
  scenarios?: string[];
  /** How the scenarios judge the class, where that is not plain. */
  note?: string;
  /** Why no broker can be judged on the class, or, with `missing`, what is to be built. */
  reason?: string;
  /** A class a broker could be judged on that the catalogue does not have yet. */
  missing?: true;
}

export interface Taxonomy {
  id: string;
  name: string;
  publication: { title: string; authors: string; url: string; source: string; version: string };
  classes: TaxonomyClass[];
}

export const taxonomiesDir = join(packageRoot, 'taxonomies');
const schemaFile = join(taxonomiesDir, 'taxonomy.schema.json');

export class TaxonomyError extends Error {}

const validate = new Ajv2020.default({ allErrors: true, strict: true, verbose: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);

export function parseTaxonomy(data: unknown, file: string): Taxonomy {
  if (!validate(data)) throw new TaxonomyError(`${file}: not a taxonomy mapping (${schemaFile}): ${describeSchemaErrors(validate.errors, 'the taxonomy')}`);
  const taxonomy = data as Taxonomy;
  const seen = new Set<string>();
  for (const entry of taxonomy.classes) {
    if (seen.has(entry.id)) throw new TaxonomyError(`${file}: two classes are named ${entry.id}`);
    seen.add(entry.id);
  }
  return taxonomy;
}

/** Every taxonomy under taxonomies/, in file-name order; a file that is not a sound mapping throws. */
export function loadTaxonomies(dir = taxonomiesDir): Taxonomy[] {
  const files = readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort();
  return files.map((name) => {
    const taxonomy = parseTaxonomy(parseYaml(readFileSync(join(dir, name), 'utf8')), join(dir, name));
    if (`${taxonomy.id}.yaml` !== name) throw new TaxonomyError(`${join(dir, name)}: its id is ${taxonomy.id}; a taxonomy's file is named by its id`);
    return taxonomy;
  });
}

/**
 * Whether a case belongs to a mapped scenario id or glob: the case of the file itself, or of one
 * of its variants or revisions, whose ids add `.<value>` to the file's (`pin.x.2026-07-28`).
 */
export const caseMatches = (caseId: string, glob: string): boolean => matchesGlob(caseId, glob) || matchesGlob(caseId, `${glob}.*`);

/** The cases of a class among `cases`: those some glob of the class names. */
export function casesOf<C extends { id: string }>(entry: TaxonomyClass, cases: readonly C[]): C[] {
  const globs = entry.scenarios ?? [];
  return cases.filter((c) => globs.some((glob) => caseMatches(c.id, glob)));
}
