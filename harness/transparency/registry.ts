import type { Candidate } from '../candidates/types.js';
import { conformanceSuite } from './conformance.js';
import { officialServersSuite } from './official-servers.js';
import { scoreOf } from './score.js';
import type { TransparencyOptions, TransparencyReport, TransparencySuite } from './types.js';

/** Every transparency suite, in the order they run. A new suite is one more entry here (types.ts says its shape). */
export const TRANSPARENCY_SUITES: readonly TransparencySuite[] = [officialServersSuite, conformanceSuite];

/** Runs every suite (or those named) against the candidate, one after another, and scores them. */
export async function runTransparency(candidate: Candidate, options: TransparencyOptions, only?: readonly string[]): Promise<TransparencyReport> {
  const started = Date.now();
  const suites: TransparencyReport['suites'] = [];
  const results: TransparencyReport['results'] = [];
  for (const suite of TRANSPARENCY_SUITES) {
    if (only !== undefined && !only.includes(suite.name)) continue;
    const sessions: Array<{ id: string; duration_ms: number }> = [];
    const suiteStarted = Date.now();
    const found = await suite.run(candidate, {
      ...options,
      onSession(name, session, durationMs) {
        sessions.push({ id: session, duration_ms: durationMs });
        options.onSession?.(name, session, durationMs);
      },
    });
    results.push(...found);
    suites.push({ name: suite.name, title: suite.title, score: scoreOf(found), duration_ms: Date.now() - suiteStarted, sessions });
  }
  return { score: scoreOf(results), suites, results, duration_ms: Date.now() - started };
}
