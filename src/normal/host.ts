// The form a host is compared in: as IDNA gives it (UTS #46, through WHATWG URL's
// domainToASCII), so `Bücher.example`, `bücher.example` and `xn--bcher-kva.example` are one host.
// A host shown to a person is compared by its look as well (skeleton.ts).

import { domainToASCII } from 'node:url';

/** `host` as IDNA to ASCII gives it, lower case, without a trailing dot; undefined when IDNA refuses it. */
export function hostKey(host: string): string | undefined {
  const ascii = domainToASCII(host.replace(/\.$/, ''));
  return ascii === '' ? undefined : ascii;
}
