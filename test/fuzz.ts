// The seed and run count every property test shares: fixed in `npm test`, so that CI replays the
// same cases in a few seconds; from the environment in `npm run fuzz`, which runs many more cases
// with a random seed (GAUNTLET_FUZZ_RUNS, GAUNTLET_FUZZ_SEED) and prints it so a failure replays.

/** The seed `npm test` runs every property with. */
const FIXED_SEED = 20251125;

/**
 * fast-check's parameters for one property file. `runs` is its case count in `npm test`, chosen
 * by what one case costs; under `npm run fuzz` every file runs GAUNTLET_FUZZ_RUNS cases, scaled
 * down by `costly` for files whose case starts a process or compiles a schema.
 */
export function fuzzParameters(name: string, runs: number, costly = 1): { seed: number; numRuns: number } {
  const fuzzRuns = process.env['GAUNTLET_FUZZ_RUNS'];
  if (fuzzRuns === undefined) return { seed: FIXED_SEED, numRuns: runs };
  const fromEnv = process.env['GAUNTLET_FUZZ_SEED'];
  const seed = fromEnv === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(fromEnv);
  const numRuns = Math.max(runs, Math.ceil(Number(fuzzRuns) / costly));
  // fast-check names the seed and the shrunk case of a failure too; this line says what ran.
  console.log(`fuzz ${name}: seed ${seed}, ${numRuns} runs per property (replay with GAUNTLET_FUZZ_SEED=${seed} GAUNTLET_FUZZ_RUNS=${fuzzRuns})`);
  return { seed, numRuns };
}
