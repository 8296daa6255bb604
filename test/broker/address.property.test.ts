// The address guard's parser on every spelling of an address: a URL naming a refused IPv4 address
// in any form WHATWG accepts (decimal, octal, hex, short forms, a trailing dot), or in brackets as
// IPv6 (IPv4-mapped, NAT64, expanded, upper case, leading zeros), is judged as that IPv4 address;
// and a zone or any case changes nothing. address.test.ts holds the ranges one address at a time.
// `npm test` runs a fixed seed; `npm run fuzz` a random one (test/fuzz.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostOf, refusedAddress } from '../../src/net/address.js';
import { fuzzParameters } from '../fuzz.js';

const PARAMETERS = fuzzParameters('address', 200);

const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
/** Mostly from the refused ranges, so both outcomes are common. */
const address = fc.oneof(
  octets,
  fc.tuple(fc.constantFrom(0, 10, 127, 169, 172, 192, 198, 224, 240, 255), fc.nat(255), fc.nat(255), fc.nat(255)),
  fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
);

const dotted = (o: readonly number[]) => o.join('.');
const asNumber = (o: readonly number[]) => o.reduce((n, b) => n * 256 + b, 0);

/** Every way WHATWG lets a URL's host spell this IPv4 address. */
function ipv4Spellings(o: readonly [number, number, number, number], radix: 8 | 10 | 16, parts: 1 | 2 | 3 | 4, dot: boolean): string {
  const word = (n: number) => (radix === 16 ? `0x${n.toString(16)}` : radix === 8 ? `0${n.toString(8)}` : String(n));
  const [a, b, c, d] = o;
  const groups = parts === 1 ? [asNumber(o)] : parts === 2 ? [a, asNumber([b, c, d])] : parts === 3 ? [a, b, c * 256 + d] : [a, b, c, d];
  return `${groups.map(word).join('.')}${dot ? '.' : ''}`;
}

/** Every way an IPv6 text can carry this IPv4 address. */
function ipv6Spellings(o: readonly [number, number, number, number], form: number, upper: boolean): string {
  const hex = (n: number) => n.toString(16);
  const [high, low] = [hex(o[0] * 256 + o[1]), hex(o[2] * 256 + o[3])];
  const forms = [
    `::ffff:${dotted(o)}`,
    `::ffff:${high}:${low}`,
    `0:0:0:0:0:ffff:${high}:${low}`,
    `0000:0000:0000:0000:0000:ffff:${high.padStart(4, '0')}:${low.padStart(4, '0')}`,
    `64:ff9b::${dotted(o)}`,
    `64:ff9b::${high}:${low}`,
    `0064:ff9b:0:0:0:0:${high}:${low}`,
  ];
  const text = forms[form % forms.length]!;
  return upper ? text.toUpperCase() : text;
}

describe('every spelling of an address is judged as the address', () => {
  it('an IPv4 address in any form a URL accepts', () => {
    fc.assert(
      fc.property(address, fc.constantFrom(8, 10, 16), fc.constantFrom(1, 2, 3, 4), fc.boolean(), (o, radix, parts, dot) => {
        const host = hostOf(new URL(`http://${ipv4Spellings(o, radix, parts, dot)}:8080/mcp`));
        expect(host).toEqual({ kind: 'address', address: dotted(o) });
      }),
      PARAMETERS,
    );
  });

  it('an IPv4 address written as IPv6, bracketed in a URL or bare as a resolver answers it', () => {
    fc.assert(
      fc.property(address, fc.nat(), fc.boolean(), (o, form, upper) => {
        const v6 = ipv6Spellings(o, form, upper);
        const expected = refusedAddress(dotted(o)) === null;
        expect(refusedAddress(v6) === null).toBe(expected);
        const host = hostOf(new URL(`http://[${v6}]/`));
        expect(host.kind === 'address' && refusedAddress(host.address) === null).toBe(expected);
      }),
      PARAMETERS,
    );
  });

  it('a zone, as a resolver or a dial may give one, changes nothing', () => {
    const v6 = fc.oneof(
      fc.ipV6(),
      fc.tuple(address, fc.nat(), fc.boolean()).map(([o, form, upper]) => ipv6Spellings(o, form, upper)),
    );
    fc.assert(
      fc.property(v6, fc.constantFrom('eth0', '1', 'lo'), (text, zone) => {
        expect(refusedAddress(`${text}%${zone}`) === null).toBe(refusedAddress(text) === null);
      }),
      PARAMETERS,
    );
  });

  it('never passes an address outside 2000::/3 unless it carries a public IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV6(), (text) => {
        const first = parseInt(new URL(`http://[${text}]/`).hostname.slice(1).split(':')[0] || '0', 16);
        const global = first >= 0x2000 && first <= 0x3fff;
        if (!global && refusedAddress(text) === null) expect(text.toLowerCase()).toMatch(/^(::ffff:|0:0:0:0:0:ffff:|64:ff9b::|64:ff9b:0:0:0:0:)/);
      }),
      PARAMETERS,
    );
  });
});
