// `fs` as Node 22 has it, for the conformance suite on Node 20 (node20-glob-shim.mjs): every
// export of the real module, and `globSync` from tinyglobby, a maintained glob library.
import fs from 'node:fs';
import { globSync as globFiles } from 'tinyglobby';

export * from 'node:fs';
export default fs;

/**
 * Node 22's `fs.globSync(pattern, { cwd, exclude })` as far as the suite uses it: the matching
 * paths, relative to `cwd` (the process's own by default). `exclude` as a function (Node's other
 * form) is not supported and fails loudly rather than matching more than asked.
 */
export function globSync(pattern, options = {}) {
  if (typeof options.exclude === 'function') throw new Error('node20 fs.globSync: an exclude function is not supported');
  return globFiles(pattern, {
    cwd: options.cwd ?? process.cwd(),
    ignore: options.exclude,
    expandDirectories: false,
    onlyFiles: false,
  });
}
