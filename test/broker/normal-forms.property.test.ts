// The normal forms the reference compares in (src/normal/): spellings of one name, one URI or one
// host are one key, and things that differ keep different keys (nothing is over-merged). The
// spellings are generated: case, compatibility forms (fullwidth, mathematical letters),
// characters that show as nothing, percent-encoding of unreserved characters, dot segments,
// default ports and IDNA forms (confusable letters: test/broker/shown-host.test.ts). `npm test` runs a fixed seed; `npm run fuzz`
// a random one (test/fuzz.ts).

import fc from 'fast-check';
import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hostKey } from '../../src/normal/host.js';
import { nameKey } from '../../src/normal/name.js';
import { sameUri, uriKey } from '../../src/normal/uri.js';
import { fuzzParameters } from '../fuzz.js';
import { nameSpelling, NAME_CHARS, uriSpelling, URI_SEGMENT_CHARS } from '../spellings.js';

const PARAMETERS = fuzzParameters('normal-forms', 300);

/** A name within the first seed's rule, in lower case: what an operator writes in a list. */
const plainName = fc.string({ unit: fc.constantFrom(...NAME_CHARS), minLength: 1, maxLength: 24 });

describe('names', () => {
  it('every spelling of a name has its key', () => {
    fc.assert(
      fc.property(plainName, fc.infiniteStream(fc.nat()), (name, choices) => {
        expect(nameKey(nameSpelling(name, choices))).toBe(name);
      }),
      PARAMETERS,
    );
  });

  it('different names keep different keys, whatever their spelling', () => {
    fc.assert(
      fc.property(plainName, plainName, fc.infiniteStream(fc.nat()), (a, b, choices) => {
        fc.pre(a !== b);
        expect(nameKey(nameSpelling(a, choices))).not.toBe(nameKey(b));
      }),
      PARAMETERS,
    );
  });

  it('folds case in full and keeps letters of other scripts apart', () => {
    expect(nameKey('STRASSE')).toBe(nameKey('straße'));
    expect(nameKey('ẞ')).toBe('ss');
    expect(nameKey('ｄｅｌｅｔｅ_note')).toBe('delete_note');
    expect(nameKey('delete\u200b_note\u{E0041}')).toBe('delete_note');
    // Cyrillic а is another letter in a name: names are not merged by their look.
    expect(nameKey('dаta')).not.toBe(nameKey('data'));
  });

  it('keys printable ASCII as the Unicode tables do: its lower case', () => {
    // A trailing é takes a name off the ASCII shortcut; no ASCII character composes with it.
    for (let code = 0x20; code <= 0x7e; code++) {
      const char = String.fromCharCode(code);
      expect(nameKey(`${char}\u00e9`)).toBe(`${nameKey(char)}\u00e9`);
    }
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 24 }), (text) => {
        expect(nameKey(text)).toBe(text.toLowerCase());
        expect(nameKey(`${text}\u00e9`)).toBe(`${text.toLowerCase()}\u00e9`);
      }),
      PARAMETERS,
    );
  });

  it('is stable: a key is its own key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 16 }), (text) => {
        expect(nameKey(nameKey(text))).toBe(nameKey(text));
      }),
      PARAMETERS,
    );
  });
});

/** An absolute URI of one of the schemes resources are listed under, in normal form. */
const plainUri = fc
  .tuple(
    fc.constantFrom('file://', 'https://example.test', 'notes://host'),
    fc.array(fc.string({ unit: fc.constantFrom(...URI_SEGMENT_CHARS), minLength: 1, maxLength: 8 }).filter((s) => s !== '.' && s !== '..'), { minLength: 1, maxLength: 4 }),
  )
  .map(([base, segments]) => `${base}/${segments.join('/')}`);

describe('URIs', () => {
  it('every spelling of a URI has its key', () => {
    fc.assert(
      fc.property(plainUri, fc.infiniteStream(fc.nat()), (uri, choices) => {
        expect(uriKey(uriSpelling(uri, choices))).toBe(uriKey(uri));
      }),
      PARAMETERS,
    );
  });

  it('different URIs keep different keys, path case and reserved escapes included', () => {
    fc.assert(
      fc.property(plainUri, plainUri, fc.infiniteStream(fc.nat()), (a, b, choices) => {
        fc.pre(a !== b);
        expect(sameUri(uriSpelling(a, choices), b)).toBe(false);
      }),
      PARAMETERS,
    );
    expect(sameUri('file:///notes/A', 'file:///notes/a')).toBe(false);
    expect(sameUri('file:///notes%2Fprivate', 'file:///notes/private')).toBe(false);
  });

  it('normalises as RFC 3986 says', () => {
    expect(uriKey('FILE:///Notes/%70ublic/./a/../b')).toBe('file:///Notes/public/b');
    expect(uriKey('HTTPS://Example.TEST:443/%7euser/%2f')).toBe('https://example.test/~user/%2F');
    expect(uriKey('notes://Host/%61')).toBe('notes://host/a');
    expect(uriKey('notes://H%4Ast%2fX/')).toBe('notes://hjst%2Fx/');
    expect(uriKey('not a uri')).toBeUndefined();
  });
});

const label = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 10 });
const plainHost = fc.array(label, { minLength: 2, maxLength: 3 }).map((labels) => labels.join('.'));

describe('hosts', () => {
  it('a host and its IDNA, case and trailing-dot spellings have one key', () => {
    fc.assert(
      fc.property(plainHost, fc.boolean(), fc.boolean(), (host, upper, dot) => {
        const unicode = `bücher-${host}`;
        const spelt = `${upper ? unicode.toUpperCase() : unicode}${dot ? '.' : ''}`;
        expect(hostKey(spelt)).toBe(hostKey(unicode));
        expect(hostKey(domainToASCII(unicode))).toBe(hostKey(unicode));
      }),
      PARAMETERS,
    );
  });
});
