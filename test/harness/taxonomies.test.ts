import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { taxonomiesDocFile } from '../../harness/paths.js';
import { taxonomiesDoc } from '../../harness/taxonomies-doc.js';
import { caseMatches, casesOf, loadTaxonomies, parseTaxonomy, TaxonomyError } from '../../harness/taxonomies.js';

// The mapping from public taxonomies to scenarios (taxonomies/, docs/taxonomies.md): every class
// is judged by scenarios the catalogue has, or says why no broker can be, or is listed missing.

const taxonomies = loadTaxonomies();
const catalogue = loadCatalogue();

describe('the taxonomy mapping', () => {
  it('maps the five taxonomies with the number of classes their publications name', () => {
    expect(Object.fromEntries(taxonomies.map((t) => [t.id, t.classes.length]))).toEqual({
      'cosai-mcp-threats': 12,
      'mcp-safetybench': 20,
      mcpsecbench: 17,
      msb: 12,
      'owasp-mcp-top-10': 10,
    });
  });

  it('every class has a scenario with an attack, or a written reason why no broker can be judged on it', () => {
    for (const taxonomy of taxonomies) {
      for (const entry of taxonomy.classes) {
        const where = `${taxonomy.id} ${entry.id}`;
        if (entry.scenarios === undefined) {
          expect(entry.reason?.length ?? 0, where).toBeGreaterThan(20);
          if (entry.missing === true) expect(entry.reason, where).toMatch(/to be built/i);
          continue;
        }
        expect(casesOf(entry, catalogue).filter((s) => s.kind === 'attack').length, where).toBeGreaterThan(0);
      }
    }
  });

  it('names no scenario the catalogue does not have: each id or glob matches one', () => {
    const unmatched = taxonomies.flatMap((taxonomy) =>
      taxonomy.classes.flatMap((entry) => (entry.scenarios ?? []).filter((glob) => !catalogue.some((s) => caseMatches(s.id, glob))).map((glob) => `${taxonomy.id} ${entry.id}: ${glob}`)),
    );
    expect(unmatched).toEqual([]);
  });

  it('a listed file brings the cases of each revision it runs under, and nothing that merely shares its prefix', () => {
    expect(caseMatches('pin.description-reworded', 'pin.description-reworded')).toBe(true);
    expect(caseMatches('pin.description-reworded.2026-07-28', 'pin.description-reworded')).toBe(true);
    expect(caseMatches('pin.description-reworded-again', 'pin.description-reworded')).toBe(false);
    expect(caseMatches('msv.name-taken-directly.2026-07-28', 'msv.*')).toBe(true);
    const revised = catalogue.filter((s) => s.id.startsWith('drf.description-reworded'));
    expect(casesOf({ id: 'x', title: 'x', scenarios: ['drf.description-reworded'] }, catalogue).map((s) => s.id).sort()).toEqual(revised.map((s) => s.id).sort());
    expect(revised.length).toBeGreaterThan(1);
  });

  it('refuses a class with neither scenarios nor a reason, and one with both', () => {
    const publication = { title: 't', authors: 'a', url: 'https://example.org/', source: 'https://example.org/', version: 'v1' };
    const mapping = (entry: object) => ({ id: 'x', name: 'X', publication, classes: [{ id: 'C1', title: 'c', ...entry }] });
    expect(() => parseTaxonomy(mapping({}), 'x.yaml')).toThrow(TaxonomyError);
    expect(() => parseTaxonomy(mapping({ scenarios: ['pin.*'], reason: 'a reason long enough to be one' }), 'x.yaml')).toThrow(TaxonomyError);
    expect(() => parseTaxonomy(mapping({ missing: true, scenarios: ['pin.*'] }), 'x.yaml')).toThrow(TaxonomyError);
    expect(parseTaxonomy(mapping({ missing: true, reason: 'to be built: a scenario of it' }), 'x.yaml').classes[0]!.missing).toBe(true);
  });

  it('cites each taxonomy from its publication', () => {
    for (const taxonomy of taxonomies) {
      expect(taxonomy.publication.url, taxonomy.id).toMatch(/^https:\/\//);
      expect(taxonomy.publication.version, taxonomy.id).not.toBe('');
    }
  });

  it('docs/taxonomies.md is what the mapping generates (npm run generate)', () => {
    expect(readFileSync(taxonomiesDocFile, 'utf8')).toBe(taxonomiesDoc(taxonomies));
  });
});
