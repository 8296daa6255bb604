/**
 * The word a person most likely meant: every message that refuses an unknown name (an option, a
 * command, a built-in candidate, a scenario key) offers the nearest known one, so that a typo is
 * answered with its fix rather than with a list to search.
 */

/**
 * Edits between two words: insertions, deletions, substitutions, and swaps of two neighbouring
 * letters (optimal string alignment), since a swap (`canddiate`) is the commonest typo of all and
 * plain Levenshtein counts it twice.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table: the one before the previous one is what a swap reads.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known word nearest `word`, when near enough to be a typo of it: at most one edit in three
 * letters (at least one), so that `rn` suggests `run` but `foo` suggests nothing. The first of
 * equally near words, in the order given.
 */
export function nearest(word: string, known: Iterable<string>): string | undefined {
  const allowed = Math.max(1, Math.floor(word.length / 3));
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word;
}

/** `; did you mean X?` for the nearest known word, or nothing: the tail of a message refusing `word`. */
export function didYouMean(word: string, known: Iterable<string>, prefix = ''): string {
  const match = nearest(word, known);
  return match === undefined ? '' : `; did you mean ${prefix}${match}?`;
}
