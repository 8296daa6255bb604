import { describe, expect, it } from 'vitest';
import { expandReferences } from '../../harness/candidates/passthrough.js';

// The baseline's naive reading of a configured value (CRD-3): what the attacks must catch.
describe('the passthrough expands references to its own environment', () => {
  const own = { SECRET: 's3cret', OTHER: 'x' };

  it('expands ${NAME} and $NAME, inside longer text too', () => {
    expect(expandReferences('${SECRET}', own)).toBe('s3cret');
    expect(expandReferences('https://h/?key=$SECRET&b=${OTHER}', own)).toBe('https://h/?key=s3cret&b=x');
  });

  it('expands an unset name to nothing, as a shell does', () => {
    expect(expandReferences('a${UNSET}b', own)).toBe('ab');
  });

  it('leaves a literal value alone', () => {
    expect(expandReferences('notes-token-7f3a9c2e41b8d605', own)).toBe('notes-token-7f3a9c2e41b8d605');
    expect(expandReferences('cost: $5', own)).toBe('cost: $5');
  });
});
