// elicitation-host-distinct on its own: a URL whose host reads as an ASCII host it is not is
// refused, in every spelling of that host (Unicode, punycode, other case, full-width letters); a
// host that is what it reads as, ASCII or in another script, passes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domainToASCII } from 'node:url';
import { elicitationHostDistinct, lookAlikeLabel } from '../../src/guards/shown-host.js';
import type { Initiated } from '../../src/guards/types.js';
import { readJson } from '../../src/json/reader.js';
import type { JsonObject } from '../../src/types.js';
import { initiatedContext } from './builders.js';

const URL_MODE = (url: string) => `{"mode":"url","message":"Sign in","url":${JSON.stringify(url)},"elicitationId":"e1"}`;
const request = (params: string): Initiated => ({ method: 'elicitation/create', params: readJson(params) as JsonObject });
const verdict = (url: string) => elicitationHostDistinct.check(request(URL_MODE(url)), initiatedContext({}));

describe('elicitation-host-distinct', () => {
  it.each([
    ['a Cyrillic і in github', 'https://g\u0456thub.com/login', 'github'],
    ['a Cyrillic а in paypal', 'https://p\u0430ypal.com/', 'paypal'],
    ['the punycode of that host', 'https://xn--pypal-4ve.com/', 'paypal'],
    ['the look-alike in a subdomain', 'https://login.g\u0456thub.com/', 'github'],
    ['upper-case Cyrillic', 'https://G\u0406THUB.com/', 'github'],
  ])('refuses %s', (_, url, shown) => {
    expect(verdict(url)).toEqual({ kind: 'refuse', reason: `the URL's host has a label in letters of another script that reads as the ASCII ${JSON.stringify(shown)}` });
  });

  it.each([
    ['an ASCII host', 'https://github.com/login'],
    ['full-width letters, which the URL parser makes the ASCII host itself', 'https://\uff47\uff49\uff54\uff48\uff55\uff42.com/'],
    ['a German host that reads as no ASCII host', 'https://m\u00fcnchen.example/'],
    ['its punycode', 'https://xn--mnchen-3ya.example/'],
    ['a host in Cyrillic that reads as no ASCII host', 'https://\u043f\u0440\u0438\u043c\u0435\u0440.example/'],
  ])('passes %s', (_, url) => {
    const asked = request(URL_MODE(url));
    expect(elicitationHostDistinct.check(asked, initiatedContext({}))).toEqual({ kind: 'pass', params: asked.params });
  });

  it('leaves a form, and a URL it cannot parse, to the other guards', () => {
    for (const params of ['{"message":"Your name?","requestedSchema":{"type":"object","properties":{}}}', URL_MODE('not a url')]) {
      const asked = request(params);
      expect(elicitationHostDistinct.check(asked, initiatedContext({}))).toEqual({ kind: 'pass', params: asked.params });
    }
  });

  // Spellings of one look-alike host: each letter of an ASCII label swapped or not for a Cyrillic
  // twin, in either case, written in Unicode or in punycode. Every spelling with a swap is refused;
  // the one without is the ASCII host itself, and passes.
  const TWINS: Record<string, string> = { a: '\u0430', e: '\u0435', o: '\u043e', p: '\u0440', c: '\u0441', x: '\u0445', i: '\u0456' };
  it('treats every spelling of a look-alike alike', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('paypal', 'apple', 'office', 'example', 'accept'),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (label, swaps, upper, punycode) => {
          const spelt = [...label].map((letter, at) => (swaps[at] && TWINS[letter] ? TWINS[letter] : letter)).join('');
          const cased = upper ? spelt.toUpperCase() : spelt;
          const host = `${cased}.com`;
          const written = punycode ? domainToASCII(host) : host;
          expect(lookAlikeLabel(new URL(`https://${written}/`).hostname) !== undefined).toBe(spelt !== label);
        },
      ),
    );
  });
});
