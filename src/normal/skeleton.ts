// The form a host shown to a person is compared in: its confusable skeleton (UTS #39, section 4,
// from Unicode's confusables.txt): `раypal.example` in Cyrillic letters and `paypal.example` look
// alike, so to a person they are one host whatever their code points. Its own module, since the
// table costs a start tens of milliseconds to load: only what shows a host to a person imports it.

import { domainToUnicode } from 'node:url';
import unhomoglyph from 'unhomoglyph';
import { hostKey } from './host.js';
import { nameKey } from './name.js';

/**
 * UTS #39's skeleton of `text`: NFD, each character replaced by its prototype in confusables.txt,
 * NFD again. Two texts a reader cannot tell apart have one skeleton.
 */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * The key of a host a person will read: its Unicode form (so that a punycode label is judged by
 * the letters it shows), names folded (nameKey), then its skeleton. Text IDNA refuses is
 * judged as written.
 */
export function shownHostKey(host: string): string {
  const ascii = hostKey(host);
  return skeleton(nameKey(ascii === undefined ? host : domainToUnicode(ascii)));
}

/** Whether a person could take host `a` for host `b`. */
export const lookAlikeHosts = (a: string, b: string): boolean => shownHostKey(a) === shownHostKey(b);
