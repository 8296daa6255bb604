// The broker's files: the operator's (configuration, manifest) read as bounded, strictly decoded
// JSON, and what it writes (manifest, load report).

import { closeSync, constants, fstatSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import type { FileGuard } from '../guards/types.js';
import { readJson, DEFAULT_READ_LIMITS } from '../json/reader.js';
import type { JsonValue } from '../types.js';

/** Larger operator files are refused rather than read partly. */
const MAX_OPERATOR_FILE_BYTES = 64 * 1024 * 1024;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses `path` once the file guards have passed the file as opened (so it cannot be
 * swapped between the check and the read); every failure is a ConfigError naming `what`.
 */
export function readJsonFile(path: string, what: string, guards: readonly FileGuard[]): JsonValue {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO returns at once and the file guards can refuse it.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new ConfigError(`cannot read the ${what} ${path}: ${(err as Error).message}`);
  }
  let bytes: Buffer;
  try {
    const stats = fstatSync(fd);
    for (const guard of guards) {
      const problem = guard.check(stats, process.getuid?.());
      if (problem !== null) throw new ConfigError(`guard ${guard.name} refused the ${what} ${path}: it ${problem}`);
    }
    if (stats.size > MAX_OPERATOR_FILE_BYTES) throw new ConfigError(`the ${what} ${path} is larger than ${MAX_OPERATOR_FILE_BYTES} bytes`);
    bytes = readFileSync(fd);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`cannot read the ${what} ${path}: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
  // A file that grew after fstat is still bounded.
  if (bytes.length > MAX_OPERATOR_FILE_BYTES) {
    throw new ConfigError(`the ${what} ${path} is larger than ${MAX_OPERATOR_FILE_BYTES} bytes`);
  }
  try {
    return readJson(STRICT_UTF8.decode(bytes), { ...DEFAULT_READ_LIMITS, maxLength: MAX_OPERATOR_FILE_BYTES });
  } catch (err) {
    throw new ConfigError(`the ${what} ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * Writes `text` to `path`; a failure is a ConfigError, since the operator chose the path. A new
 * file is readable and writable by the user only, whatever the umask: a manifest must pass the
 * private-operator-files guard when it is read back.
 */
export function writeTextFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text, { mode: 0o600 });
  } catch (err) {
    throw new ConfigError(`cannot write the ${what} ${path}: ${(err as Error).message}`);
  }
}
