// The form a host shown to a person is compared in: its confusable skeleton (UTS #39, section 4,
// from Unicode's confusables.txt): `раypal.example` in Cyrillic letters and `paypal.example` look
// alike, so to a person they are one host whatever their code points. The table costs a start
// tens of milliseconds to load, and is needed only when a host shown to a person has a label in
// non-ASCII letters (src/guards/shown-host.ts), which most sessions never see: it is loaded on the
// first skeleton, through createRequire, which scripts/bundle-entries.mjs keeps lazy in the bundle.

import { createRequire } from 'node:module';

let replaceConfusables: ((text: string) => string) | undefined;

/**
 * UTS #39's skeleton of `text`: NFD, each character replaced by its prototype in confusables.txt,
 * NFD again. Two texts a reader cannot tell apart have one skeleton.
 */
export function skeleton(text: string): string {
  replaceConfusables ??= createRequire(import.meta.url)('unhomoglyph') as (text: string) => string;
  return replaceConfusables(text.normalize('NFD')).normalize('NFD');
}
