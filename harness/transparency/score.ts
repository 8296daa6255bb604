import type { TransparencyResult, TransparencyScore } from './types.js';

/** The counts of `results`, and transparency: preserved of what works direct (changed and broken count against it). */
export function scoreOf(results: readonly TransparencyResult[]): TransparencyScore {
  const count = (verdict: TransparencyResult['verdict']) => results.filter((result) => result.verdict === verdict).length;
  const preserved = count('preserved');
  const changed = count('changed');
  const broken = count('broken');
  const applicable = preserved + changed + broken;
  return {
    preserved,
    changed,
    broken,
    not_applicable: count('not-applicable'),
    unsupported: count('unsupported'),
    applicable,
    transparency: applicable === 0 ? null : preserved / applicable,
  };
}

/** "preserved 70 of 72 (97.2%), 1 changed, 1 broken", or "not measured" when nothing applied. */
export function describeScore(score: TransparencyScore | undefined): string {
  if (score === undefined || score.transparency === null) return 'not measured';
  const percent = `${(Math.floor(score.transparency * 1000) / 10).toFixed(1)}%`;
  return `preserved ${score.preserved} of ${score.applicable} (${percent}), ${score.changed} changed, ${score.broken} broken`;
}
