// The form a host shown to a person is compared in: its confusable skeleton (UTS #39, section 4,
// from Unicode's confusables.txt): `раypal.example` in Cyrillic letters and `paypal.example` look
// alike, so to a person they are one host whatever their code points. Its own module, since the
// table costs a start tens of milliseconds to load: only what shows a host to a person imports it.

import unhomoglyph from 'unhomoglyph';

/**
 * UTS #39's skeleton of `text`: NFD, each character replaced by its prototype in confusables.txt,
 * NFD again. Two texts a reader cannot tell apart have one skeleton.
 */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}
