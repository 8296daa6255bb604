// The broker's code cache (scripts/bundle-entries.mjs; docs/reference-broker.md, "The broker's
// code cache"): the build's cache is one this Node accepts and was made from the bundle beside it,
// and a cache that was made from another bundle is never run, even when V8's own check (the
// source's length) would let it through.

import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Module } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Script } from 'node:vm';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';

const built = join(packageRoot, 'dist', 'src');
const FILES = ['cli.start.cjs', 'cli.bundle.cjs', 'cli.bundle.cache'];
/** The bundle as the loader compiles it: its shebang a comment. */
const asCompiled = (bundle: string): string => bundle.replace(/^#!/, '//');

/**
 * Copies the loader, the bundle and its cache to a fresh folder, rewrites the bundle with `edit`
 * (given its text and the cache V8 would be handed), and starts the loader with a command it
 * refuses: the usage text it prints on stderr.
 */
async function runEdited(edit: (bundle: string, cache: Buffer) => string): Promise<string> {
  const work = await dir({ unsafeCleanup: true });
  try {
    for (const file of FILES) copyFileSync(join(built, file), join(work.path, file));
    const bundle = join(work.path, 'cli.bundle.cjs');
    const original = readFileSync(bundle, 'utf8');
    const edited = edit(original, readFileSync(join(work.path, 'cli.bundle.cache')).subarray(65));
    expect(edited).not.toBe(original);
    writeFileSync(bundle, edited);
    const run = await promisify(execFile)(process.execPath, [join(work.path, 'cli.start.cjs'), 'no-such-command']).catch((error: { code: number; stderr: string }) => error);
    expect('code' in run ? run.code : 0).toBe(2);
    return run.stderr;
  } finally {
    await work.cleanup();
  }
}

describe("the broker's code cache", () => {
  it('was made from the bundle beside it, and this Node accepts it', () => {
    const bytes = readFileSync(join(built, 'cli.bundle.cjs'));
    const source = asCompiled(bytes.toString('utf8'));
    const cache = readFileSync(join(built, 'cli.bundle.cache'));
    // The digest is of the bundle's bytes as they are on disk, shebang and all.
    expect(cache.subarray(0, 65).toString('latin1')).toBe(`${createHash('sha256').update(bytes).digest('hex')}\n`);
    const script = new Script(Module.wrap(source), { filename: join(built, 'cli.bundle.cjs'), cachedData: cache.subarray(65) });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('is ASCII, as is the kit server\'s bundle, so the loader takes its bytes as Latin-1 text', () => {
    for (const bundle of [join(built, 'cli.bundle.cjs'), join(packageRoot, 'dist', 'servers', 'main.bundle.cjs')]) {
      expect(isAscii(readFileSync(bundle)), bundle).toBe(true);
    }
  });

  it('reads a bundle that is not ASCII as UTF-8: its text runs as written', async () => {
    // Two bytes in UTF-8 for the one character: read as Latin-1, it would print as two.
    const stderr = await runEdited((original) => original.replace('audit-verify FILE', 'audit-verify F\u00cfLE'));
    expect(stderr).toContain('gauntlet-broker audit-verify F\u00cfLE');
  });

  it('is not used for a bundle edited without changing its length: the edit runs', async () => {
    const stderr = await runEdited((original, cache) => {
      // The usage text is a constant of the bundle's top level, which the cache holds compiled.
      const edited = original.replace('audit-verify FILE', 'audit-verify PATH');
      expect(edited.length).toBe(original.length);
      // V8 alone would take the cache for the edited bundle: the length is all it checks.
      expect(new Script(Module.wrap(asCompiled(edited)), { cachedData: cache }).cachedDataRejected).toBe(false);
      return edited;
    });
    expect(stderr).toContain('gauntlet-broker audit-verify PATH');
    expect(stderr).not.toContain('audit-verify FILE');
  });
});
