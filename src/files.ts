// The broker's files: the operator's (configuration, manifest) read as bounded, strictly decoded
// JSON, and what it writes (manifest, load report).

import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError } from './errors.js';
import { readJson, DEFAULT_READ_LIMITS } from './json/reader.js';
import type { JsonValue } from './json/tree.js';

/** Larger operator files are refused rather than read partly. */
const MAX_OPERATOR_FILE_BYTES = 64 * 1024 * 1024;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads and parses `path`; every failure is a ConfigError naming `what`. */
export function readJsonFile(path: string, what: string): JsonValue {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new ConfigError(`cannot read the ${what} ${path}: ${(err as Error).message}`);
  }
  if (bytes.length > MAX_OPERATOR_FILE_BYTES) {
    throw new ConfigError(`the ${what} ${path} is larger than ${MAX_OPERATOR_FILE_BYTES} bytes`);
  }
  try {
    return readJson(STRICT_UTF8.decode(bytes), { ...DEFAULT_READ_LIMITS, maxLength: MAX_OPERATOR_FILE_BYTES });
  } catch (err) {
    throw new ConfigError(`the ${what} ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Writes `text` to `path`; a failure is a ConfigError, since the operator chose the path. */
export function writeTextFile(path: string, text: string, what: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new ConfigError(`cannot write the ${what} ${path}: ${(err as Error).message}`);
  }
}
