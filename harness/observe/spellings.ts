// Whether an item a broker offers is, under another spelling, one a scenario says must be
// withheld: a broker that hides `delete_note` and offers `Delete_Note`, `ｄｅｌｅｔｅ_note` or
// `delete\u200b_note` offers it all the same, since an agent (a model) reads them as one, and a
// resource at `FILE:///notes/%73ecret` is the one at `file:///notes/secret`. Written here, not
// shared with the broker (src/normal/): the harness judges by its own reading.

import { caseFold } from 'unicode-case-folding';

/** What shows as nothing: controls, format characters, default-ignorables, line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/gu;

/** A URI's text as RFC 3986 compares it: an unreserved character's escape decoded, any other in upper case. */
const unescapeUnreserved = (text: string): string =>
  text.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /^[\w.~-]$/.test(char) ? char : escape.toUpperCase();
  });

/** Text with a scheme that URL parsing takes: a URI, compared as one. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The form two spellings of one item share. A URI (or template): parsed, scheme and host in lower
 * case, dot segments and default ports gone, unreserved escapes decoded; its path keeps its case.
 * Any other key (a tool or prompt name): NFKC, full Unicode case folding, nothing invisible.
 */
export function itemKey(text: string): string {
  if (SCHEME.test(text) && URL.canParse(text)) {
    const url = new URL(unescapeUnreserved(new URL(text).href));
    if (url.host !== '') url.host = url.host.toLowerCase();
    return `uri ${url.href}`;
  }
  return `name ${caseFold(text.replace(INVISIBLE, '').normalize('NFKC')).normalize('NFKC').replace(INVISIBLE, '')}`;
}

/** The key each offered item is known by, to the item's own spelling. */
export function byItemKey(offered: Iterable<string>): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of offered) if (!keys.has(itemKey(key))) keys.set(itemKey(key), key);
  return keys;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Text as a reader takes it: compatibility forms (full-width, ligatures, mathematical letters) in
 * NFKC and case folded, so `ＩＧＮＯＲＥ` and `ignore` are one. Invisible characters are kept, as a
 * scenario's fragment may be made of them. Upper then lower case is full case folding for the
 * letters that matter here (ß, ſ, final sigma) at native speed: a received text may be megabytes.
 */
function textKey(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * The first string that carries `fragment`, as written or in a spelling a model reads as the
 * same; undefined when none does. What must not reach the agent must not reach it respelt.
 */
export function carrierOf(strings: readonly string[], fragment: string): string | undefined {
  const exact = strings.find((text) => text.includes(fragment));
  if (exact !== undefined) return exact;
  const key = textKey(fragment);
  return strings.find((text) => textKey(text).includes(key));
}
