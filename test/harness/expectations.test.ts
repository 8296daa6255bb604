import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { expectationsDoc, scenarioSchema } from '../../harness/expect/generate.js';
import { plannedChecks } from '../../harness/expect/plan.js';
import { BLOCKS, CHECKS, EXPECTATIONS, expectationsOf } from '../../harness/expect/registry.js';
import { CHECK_CLASSES } from '../../harness/expect/types.js';
import { expectationsDocFile, scenarioSchemaFile } from '../../harness/paths.js';

// The format exists once, in the expectation modules: the committed schema and docs are made
// from them, and each check id names one class wherever it is declared.

describe('the expectation registry', () => {
  it('the committed schema and docs are what the modules generate (npm run generate)', () => {
    expect(JSON.parse(readFileSync(scenarioSchemaFile, 'utf8'))).toEqual(scenarioSchema());
    expect(readFileSync(expectationsDocFile, 'utf8')).toBe(expectationsDoc());
  });

  it('each block owns each property once, and each module names its checks under its block', () => {
    for (const block of BLOCKS) {
      const properties = expectationsOf(block).flatMap((module) => Object.keys(module.properties));
      expect(new Set(properties).size, block).toBe(properties.length);
    }
    const prefixes: Record<string, string[]> = { scenario: ['ledger', 'canary', 'cache_hints', 'secrets', 'server_env', 'server_headers', 'load_report', 'audit', 'servers', 'opened'] };
    for (const module of EXPECTATIONS) {
      expect(Object.keys(module.checks).length, module.name).toBeGreaterThan(0);
      for (const check of Object.keys(module.checks)) {
        expect(prefixes[module.block] ?? [module.block], `${module.name}: ${check}`).toContain(check.split('.')[0]);
      }
    }
  });

  it('a check id has one class wherever it is declared, and every class is one of the four', () => {
    for (const module of EXPECTATIONS) {
      for (const [check, declared] of Object.entries(module.checks)) {
        expect(CHECKS.get(check)?.class, check).toBe(declared.class);
        expect(CHECK_CLASSES).toContain(declared.class);
      }
    }
  });

  it('the checks a module says an expectation can report are checks it declares', () => {
    for (const scenario of loadCatalogue()) {
      for (const planned of plannedChecks(scenario)) expect(CHECKS.has(planned.check), `${scenario.id}: ${planned.check}`).toBe(true);
    }
  });
});
