// Private directories a test makes under the OS's temporary directory, each removed after the
// test that made it. A test that makes several (a loader fed twice) must not leave all but the
// last behind, as a single `dir` variable overwritten by each made did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Registers the clean-up in the calling scope, and returns the maker of directories named `prefix...`. */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
