import { writeFileSync } from 'node:fs';
import { expectationsDocFile, scenarioSchemaFile, taxonomiesDocFile } from '../paths.js';
import { loadTaxonomies } from '../taxonomies.js';
import { taxonomiesDoc } from '../taxonomies-doc.js';
import { expectationsDoc, scenarioSchema } from './generate.js';

// `npm run generate`: writes the files the expectation modules define, so the format exists once,
// and docs/taxonomies.md from the taxonomy mapping (taxonomies/).
writeFileSync(scenarioSchemaFile, `${JSON.stringify(scenarioSchema(), null, 2)}\n`);
writeFileSync(expectationsDocFile, expectationsDoc());
writeFileSync(taxonomiesDocFile, taxonomiesDoc(loadTaxonomies()));
