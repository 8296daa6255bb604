import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenArguments, GenerationError, validArguments } from '../../harness/args/generate.js';
import { validate } from '../../harness/args/validator.js';
import { BREAKABLE_KEYWORDS } from '../../harness/scenario/types.js';
import { presetSchema } from '../../servers/kit/schemas.js';

/** The keyword-rich schema the strict-schema hostile server presents. */
const schema = presetSchema('keywords', 9) as Record<string, unknown>;

describe('generated arguments', () => {
  it('are valid for every seed, and the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (seed) => {
        const made = validArguments(schema, seed);
        expect(validate(schema, made).valid).toBe(true);
        expect(validArguments(schema, seed)).toEqual(made);
      }),
      { numRuns: 50 },
    );
  });

  it.each(BREAKABLE_KEYWORDS)('breaking %s fails validation on exactly that keyword', (keyword) => {
    const broken = brokenArguments(schema, keyword, 3);
    const verdict = validate(schema, broken);
    expect(verdict.valid).toBe(false);
    // Every error is that keyword's: a scenario named for one keyword must test that one alone.
    expect(new Set(verdict.errors.map((e) => e.keyword))).toEqual(new Set([keyword]));
  });

  it('refuses to claim a break the schema cannot express', () => {
    expect(() => brokenArguments({ type: 'object', properties: { a: { type: 'string' } } }, 'maximum', 1)).toThrow(GenerationError);
  });
});
