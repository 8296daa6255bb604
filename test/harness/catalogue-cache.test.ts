// The checked catalogue kept between runs (harness/scenario/cache.ts): what is read back is what
// a full load returns, `!exact` numbers included; any change to what the load read or ran is a
// miss; a kept file that does not read, or cannot be written, costs only a full load.

import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LosslessNumber } from 'lossless-json';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { catalogueKey, readCatalogue, writeCatalogue } from '../../harness/scenario/cache.js';
import { MAX_SCENARIO_BYTES, scenarioFiles } from '../../harness/scenario/load.js';
import type { Scenario } from '../../harness/scenario/types.js';

let work: DirectoryResult;
beforeEach(async () => {
  work = await dir({ unsafeCleanup: true });
});
afterEach(() => work.cleanup());

const kept = () => readdirSync(work.path).filter((name) => name.endsWith('.json'));

/** Whether a LosslessNumber stands anywhere in `value`. */
const holdsExact = (value: unknown): boolean =>
  value instanceof LosslessNumber || (value !== null && typeof value === 'object' && Object.values(value).some(holdsExact));

describe('the kept catalogue', () => {
  it('reads back as the full load returned it, !exact numbers as LosslessNumbers', () => {
    const loaded = loadCatalogue(undefined, work.path);
    expect(kept()).toHaveLength(1);
    expect(loaded.some(holdsExact)).toBe(true);
    const again = loadCatalogue(undefined, work.path);
    expect(again).toStrictEqual(loaded);
    expect(isDeepStrictEqual(again, loaded)).toBe(true);
    // Read back, not loaded again: an edit of the kept file under the same key shows in the next load.
    const [file] = kept();
    const path = join(work.path, file!);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"title":"', '"title":"KEPT '));
    expect(loadCatalogue(undefined, work.path).every((scenario) => scenario.title.startsWith('KEPT '))).toBe(true);
  });

  it('is missed when a scenario file, an id it is checked against or the code changes', async () => {
    const files = [...scenarioFiles()];
    const inputs = { files, requirementIds: new Set(['PIN-2']), serverIds: new Set(['notes']) };
    const code = await dir({ unsafeCleanup: true });
    try {
      writeFileSync(join(code.path, 'check.js'), 'export const x = 1;\n');
      const key = catalogueKey(inputs, [code.path]);
      expect(catalogueKey(inputs, [code.path])).toBe(key);
      expect(catalogueKey({ ...inputs, requirementIds: new Set(['PIN-2', 'PIN-3']) }, [code.path])).not.toBe(key);
      expect(catalogueKey({ ...inputs, serverIds: new Set(['notes', 'oversized-result']) }, [code.path])).not.toBe(key);
      expect(catalogueKey({ ...inputs, files: files.slice(1) }, [code.path])).not.toBe(key);
      writeFileSync(join(code.path, 'check.js'), 'export const x = 2;\n');
      expect(catalogueKey(inputs, [code.path])).not.toBe(key);
      writeFileSync(join(code.path, 'check.js'), 'export const x = 1;\n');
      mkdirSync(join(code.path, 'more'));
      writeFileSync(join(code.path, 'more', 'rule.ts'), 'export {};\n');
      expect(catalogueKey(inputs, [code.path])).not.toBe(key);
    } finally {
      await code.cleanup();
    }
  });

  it('is missed when a scenario saved as .yml is added, as for one saved as .yaml', () => {
    writeFileSync(join(work.path, 'a.yaml'), 'id: a\n');
    writeFileSync(join(work.path, 'notes.txt'), 'not a scenario\n');
    const key = () => catalogueKey({ files: [...scenarioFiles(work.path)], requirementIds: new Set(), serverIds: new Set() }, []);
    const before = key();
    writeFileSync(join(work.path, 'b.yml'), 'id: b\n');
    expect([...scenarioFiles(work.path)].map((file) => file.slice(work.path.length + 1))).toEqual(['a.yaml', 'b.yml']);
    expect(key()).not.toBe(before);
  });

  it('is missed when a scenario file changes by one byte', async () => {
    const copy = await dir({ unsafeCleanup: true });
    try {
      const file = join(copy.path, 'one.yaml');
      const [first] = scenarioFiles();
      const text = readFileSync(first!, 'utf8');
      writeFileSync(file, text);
      const key = catalogueKey({ files: [file], requirementIds: new Set(), serverIds: new Set() }, []);
      writeFileSync(file, `${text} `);
      expect(catalogueKey({ files: [file], requirementIds: new Set(), serverIds: new Set() }, [])).not.toBe(key);
      // Past the loader's bound the file is not read whole, and nothing is kept of a catalogue holding it.
      writeFileSync(file, 'x'.repeat(MAX_SCENARIO_BYTES + 1));
      expect(catalogueKey({ files: [file], requirementIds: new Set(), serverIds: new Set() }, [])).toBeUndefined();
    } finally {
      await copy.cleanup();
    }
  });

  it('that does not read is a miss: the full load runs and keeps a good one', () => {
    const loaded = loadCatalogue(undefined, work.path);
    const [file] = kept();
    for (const broken of ['{"format":1,"key":', 'null', '{"format":2}', '[]']) {
      writeFileSync(join(work.path, file!), broken);
      expect(loadCatalogue(undefined, work.path)).toStrictEqual(loaded);
      expect(readFileSync(join(work.path, file!), 'utf8')).not.toBe(broken);
    }
  });

  it('under another key is a miss', () => {
    const scenarios = [{ id: 'a' }] as unknown as Scenario[];
    writeCatalogue('one', scenarios, work.path);
    expect(readCatalogue('one', work.path)).toStrictEqual(scenarios);
    expect(readCatalogue('two', work.path)).toBeUndefined();
  });

  it('is not written for a catalogue holding a key that reads as an !exact number, nor where it cannot be', () => {
    writeCatalogue('one', [{ id: 'a', arguments: { '!exact': '1' } }] as unknown as Scenario[], work.path);
    expect(kept()).toHaveLength(0);
    const notADir = join(work.path, 'file');
    writeFileSync(notADir, '');
    expect(() => writeCatalogue('one', [{ id: 'a' }] as unknown as Scenario[], notADir)).not.toThrow();
    expect(readCatalogue('one', notADir)).toBeUndefined();
    expect(readdirSync(work.path)).toEqual(['file']);
  });
});
