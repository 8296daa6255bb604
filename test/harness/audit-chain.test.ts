import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainProblem } from '../../harness/observe/audit-chain.js';

/** A trail written by hand in the documented form, with keys deliberately out of order. */
function trail(decisions: string[]): string[] {
  let prev = '0'.repeat(64);
  return decisions.map((decision, seq) => {
    const sortedText = `{"decision":${JSON.stringify(decision)},"prev":"${prev}","seq":${seq}}`;
    const hash = createHash('sha256').update(prev + sortedText).digest('hex');
    const line = JSON.stringify({ seq, prev, decision, hash });
    prev = hash;
    return line;
  });
}

describe('audit chain verification', () => {
  const lines = trail(['registered', 'allowed', 'call_refused']);

  it('accepts a trail whose every record links to and hashes over the one before', () => {
    expect(chainProblem(lines)).toBeUndefined();
  });

  it('finds an edited record', () => {
    const edited = [...lines];
    edited[1] = edited[1]!.replace('"allowed"', '"call_refused"');
    expect(chainProblem(edited)).toMatch(/record 1 has hash/);
  });

  it('finds a removed record', () => {
    expect(chainProblem([lines[0]!, lines[2]!])).toMatch(/record 1 does not link/);
  });

  it('does not take an empty trail as proof of anything', () => {
    expect(chainProblem([])).toBe('the trail is empty');
  });
});
