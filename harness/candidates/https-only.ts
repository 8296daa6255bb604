import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { proxyCandidate } from './passthrough.js';
import { HTTPS_ONLY_REFUSAL } from './plain-http-refusal.js';
import type { Candidate } from './types.js';

/**
 * A harness self-test fixture, not a candidate anyone registers: the passthrough, with no address
 * guard at all, refusing every plain-http URL that is not loopback and naming it
 * (plain-http-refusal.ts), as a broker that only insists on https does. An https rule is no
 * address guard: every address-guard attack runs over https too, where this fixture dials
 * whatever it is given, so it must hold none of them, and it passes every control it can reach
 * (test/harness/https-only.test.ts).
 */
export function httpsOnlyCandidate(): Candidate {
  const name = 'https-only';
  return {
    ...proxyCandidate(name, ['--https-only']),
    async startRefusal(spec, exit) {
      // It refuses by exiting 2 with one line naming the URL; any other exit refused nothing.
      const stderr = join(spec.workdir, `${name}.stderr`);
      if (exit.code !== 2 || !existsSync(stderr)) return undefined;
      const lines = (await readFile(stderr, 'utf8')).split('\n');
      return lines.find((line) => line.startsWith(HTTPS_ONLY_REFUSAL))?.slice(HTTPS_ONLY_REFUSAL.length);
    },
  };
}
