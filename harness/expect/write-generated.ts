import { writeFileSync } from 'node:fs';
import { expectationsDocFile, scenarioSchemaFile } from '../paths.js';
import { expectationsDoc, scenarioSchema } from './generate.js';

// `npm run generate`: writes the files the expectation modules define, so the format exists once.
writeFileSync(scenarioSchemaFile, `${JSON.stringify(scenarioSchema(), null, 2)}\n`);
writeFileSync(expectationsDocFile, expectationsDoc());
