/**
 * Presets that take a size, written `<family>-<N>` (`chars-20000`, `deep-33`): a scenario sets a
 * payload just under or just over a broker's bound by the number alone, without a preset per size.
 * knobs.ts parses them; each preset module names its families and the sizes it accepts.
 */

export interface Sized<Family extends string> {
  family: Family;
  n: number;
}

/** The sizes a family accepts, both ends included. */
export interface SizeRange {
  min: number;
  max: number;
}
