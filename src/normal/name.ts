// The form a name is compared in wherever the broker decides on it against an operator's item or
// another server item: Unicode's NFKC_Casefold, as UAX #31 and UTS #39 compare identifiers.
// Compatibility characters (fullwidth `ｄ`, ligatures, superscripts) become what they stand for,
// case is folded in full (Unicode's CaseFolding.txt: `ß` and `ẞ` fold to `ss`, which
// `toLowerCase` does not do), and characters that show as nothing (zero-width spaces and joiners,
// tag characters, controls) are dropped, so `Delete_Note`, `ｄｅｌｅｔｅ_note` and
// `delete\u200b_note` are one name. The form is for comparing only: what is offered, forwarded or
// recorded keeps the server's spelling.

import { caseFold } from 'unicode-case-folding';
import { HIDDEN_CLASS } from '../inspect/invisible.js';

const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'gu');

/**
 * Printable ASCII: no character of it is hidden (\p{Cc}, the only class of HIDDEN_CLASS with ASCII
 * members, is outside it), NFKC maps each to itself, and the only full case folding in it is A-Z
 * to a-z; its key is its lower case, found without the Unicode tables. Nearly every name a server
 * lists or an operator writes is such, and a load of 1,000 tools takes thousands of keys.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** `name` in NFKC_Casefold: the key two spellings of one name share. */
export function nameKey(name: string): string {
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase();
  // Folding can leave text NFKC would change again (a folded letter composing with a mark), and
  // NFKC can yield a hidden character (U+FFA0 becomes U+1160): the steps run again until the
  // text holds, a bounded number of times (Unicode's closure takes one round; the rest is margin).
  let key = name;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = caseFold(key.replace(HIDDEN, '').normalize('NFKC')).normalize('NFKC').replace(HIDDEN, '');
    if (next === key) break;
    key = next;
  }
  return key;
}

const MAX_ROUNDS = 4;

/** The keys of `names`, for a membership test of a spelling against an operator's list. */
export const nameKeys = (names: Iterable<string>): Set<string> => new Set([...names].map(nameKey));
