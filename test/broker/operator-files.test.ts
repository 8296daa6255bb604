// The operator's files as the broker reads and writes them (src/operator/files.ts): a file past
// 64 MiB refused before it is read, one of exactly 64 MiB read; a file that cannot be read named;
// nothing left open after a read; what the broker writes readable by its user only, and a path it
// cannot write named. config.test.ts has the private-operator-files guard's refusals.

import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { readJsonFile, writeTextFile } from '../../src/operator/files.js';

const MAX = 64 * 1024 * 1024;

let dir = '';
afterEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});
const file = (name: string) => {
  if (dir === '') dir = mkdtempSync(join(tmpdir(), 'broker-files-'));
  return join(dir, name);
};
/** A file of `size` bytes that takes no room on disk: zero bytes, so never valid JSON. */
const sparse = (size: number) => {
  const path = file(`sparse-${size}`);
  writeFileSync(path, '', { mode: 0o600 });
  truncateSync(path, size);
  return path;
};

describe('readJsonFile', () => {
  it('refuses a file past 64 MiB before reading it, and reads one of exactly 64 MiB', () => {
    const over = sparse(MAX + 1);
    expect(() => readJsonFile(over, 'configuration', ALL_GUARDS.file)).toThrow(new ConfigError(`the configuration ${over} is larger than ${MAX} bytes`));
    // Read, and then judged as JSON: zero bytes are none.
    expect(() => readJsonFile(sparse(MAX), 'configuration', ALL_GUARDS.file)).toThrow(/^the configuration .* is not valid JSON: /);
  });

  it('names a file it opened but could not read', () => {
    // A folder opens; only the file guard would have refused it before the read.
    const folder = file('folder');
    mkdirSync(folder);
    expect(() => readJsonFile(folder, 'manifest', [])).toThrow(new ConfigError(`cannot read the manifest ${folder}: EISDIR: illegal operation on a directory, read`));
  });

  it('leaves no descriptor open, whether the file was read or refused', () => {
    const good = file('good.json');
    writeFileSync(good, '{"a":1}', { mode: 0o600 });
    const over = sparse(MAX + 1);
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) {
      readJsonFile(good, 'configuration', ALL_GUARDS.file);
      expect(() => readJsonFile(over, 'configuration', ALL_GUARDS.file)).toThrow(ConfigError);
    }
    expect(open()).toBe(before);
  });
});

describe('writeTextFile', () => {
  it('writes a new file readable and writable by its user only, and names a path it cannot write', () => {
    const report = file('load.json');
    writeTextFile(report, '{}', 'load report');
    expect(statSync(report).mode & 0o777).toBe(0o600);
    const folder = file('folder');
    mkdirSync(folder);
    expect(() => writeTextFile(folder, '{}', 'load report')).toThrow(new ConfigError(`cannot write the load report ${folder}: EISDIR: illegal operation on a directory, open '${folder}'`));
  });
});
