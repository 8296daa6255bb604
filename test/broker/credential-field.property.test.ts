// Whether an elicitation form's field asks for a credential (src/guards/credential-field.ts), both
// sides: each shape of a credential field is found (its name in any identifier style, format
// password, a title or description asking), and prose that only tells the user what NOT to give
// asks for nothing, the form official server-everything sends included, verbatim. The guard's
// verdict and reason are in elicitation-guards.test.ts. `npm test` runs a fixed seed; `npm run
// fuzz` a random one (test/fuzz.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asksForCredential, credentialCue, namesCredential, words } from '../../src/guards/credential-field.js';
import { readJson } from '../../src/json/reader.js';
import { fuzzParameters } from '../fuzz.js';

const PARAMETERS = fuzzParameters('credential-field', 200);

const field = (json: unknown) => readJson(JSON.stringify(json));

/** Each credential as words, as the reading knows them. */
const CREDENTIALS = [
  ['password'],
  ['passphrase'],
  ['passcode'],
  ['pin'],
  ['pin', 'code'],
  ['otp'],
  ['totp'],
  ['token'],
  ['secret'],
  ['credential'],
  ['api', 'key'],
  ['private', 'key'],
  ['one', 'time', 'code'],
  ['one', 'time', 'password'],
  ['verification', 'code'],
  ['security', 'code'],
  ['cvv'],
] as const;

/** Words that name nothing secret, some of them close to a credential's spelling. */
const BENIGN = ['favorite', 'integer', 'phone', 'number', 'pinned', 'spinner', 'opinion', 'tokens', 'secretary', 'passport', 'city', 'name', 'email', 'folder', 'code', 'key', 'time', 'sensitive', 'info', 'keyboard', 'compass'];

/** An identifier of words in one of the styles schemas use. */
function identifier(parts: readonly string[], style: number): string {
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  switch (style) {
    case 0:
      return parts.join('_');
    case 1:
      return parts.join('-');
    case 2:
      return parts[0]! + parts.slice(1).map(cap).join('');
    case 3:
      return parts.map(cap).join('');
    case 4:
      return parts.join('_').toUpperCase();
    default:
      return parts.join(' ');
  }
}

const credential = fc.constantFrom(...CREDENTIALS);
const benignWords = fc.array(fc.constantFrom(...BENIGN), { maxLength: 3 });
const style = fc.integer({ min: 0, max: 5 });

describe('a field name', () => {
  it('names a credential in every identifier style, among other words', () => {
    fc.assert(
      fc.property(benignWords, credential, benignWords, style, (before, secret, after, s) => {
        expect(namesCredential(identifier([...before, ...secret, ...after], s))).toBe(true);
      }),
      PARAMETERS,
    );
  });

  it('names none when none of its words is one', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BENIGN), { minLength: 1, maxLength: 4 }), style, (parts, s) => {
        expect(namesCredential(identifier(parts, s))).toBe(false);
      }),
      PARAMETERS,
    );
  });

  it.each([
    ['api_key', true],
    ['APIKey', true],
    ['accessToken', true],
    ['client_secret', true],
    ['userPin', true],
    ['pincode', true],
    ['one-time-password', true],
    ['pass\u200bword', true],
    ['ｐａｓｓｗｏｒｄ', true],
    ['max_tokens', false],
    ['pinned', false],
    ['spinner', false],
    ['keyboard_layout', false],
    ['integer', false],
  ])('%s: %s', (name, expected) => expect(namesCredential(name)).toBe(expected));
});

describe('prose', () => {
  const PROHIBITIONS = ['do not give us', "don't share", 'Never enter', 'you must not send', 'Please do not type', 'no need to provide'];

  it('asks for nothing it forbids giving, in a list of other things', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROHIBITIONS), benignWords, credential, benignWords, (prohibition, before, secret, after) => {
        const listed = [...before, secret.join(' '), ...after].join(', ');
        expect(asksForCredential(`Your favorite city (${prohibition} your ${listed} or other sensitive info)`)).toBe(false);
        expect(asksForCredential(`${prohibition} your ${listed}`)).toBe(false);
      }),
      PARAMETERS,
    );
  });

  it('asks for a credential it names outside a prohibition, before one, in another clause, or after a turn', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROHIBITIONS), credential, (prohibition, secret) => {
        const named = secret.join(' ');
        expect(asksForCredential(`Enter your ${named}`)).toBe(true);
        expect(asksForCredential(`Your ${named} (${prohibition} it to anyone else)`)).toBe(true);
        expect(asksForCredential(`${prohibition} your phone number. Type your ${named} here`)).toBe(true);
        expect(asksForCredential(`${prohibition} anyone but us your ${named}`)).toBe(true);
      }),
      PARAMETERS,
    );
  });

  it.each([
    ['Your favorite integer (do not give us your phone number, pin, or other sensitive info)', false],
    ['Do not give us your phone number, pin, or other sensitive info', false],
    ['Never share your password with anyone', false],
    ['We do not store your password, enter it below', true],
    ['Never share anything other than your PIN', true],
    ['the one-time code we sent', true],
    ['Your password', true],
    ['Favorite number (there are no wrong answers)', false],
    ['How many tokens may the reply use?', false],
    ['', false],
  ])('%j asks for a credential: %s', (prose, expected) => expect(asksForCredential(prose)).toBe(expected));
});

describe('a field', () => {
  it.each([
    ['its name', 'api_key', { type: 'string' }, 'name'],
    ['format password', 'value', { type: 'string', format: 'password' }, 'format'],
    ['format Password, in any case', 'value', { type: 'string', format: 'Password' }, 'format'],
    ['its title', 'field1', { type: 'string', title: 'Your password' }, 'title'],
    ['its description', 'field1', { type: 'string', description: 'the one-time code we sent' }, 'description'],
  ])('asks for a credential by %s', (_, name, json, cue) => expect(credentialCue(name, field(json))).toBe(cue));

  it.each([
    ['a benign field', 'city', { type: 'string', title: 'City', description: 'where you live' }],
    ['another format', 'email', { type: 'string', format: 'email', description: 'Your email address (will be verified, and never shared with anyone else)' }],
    ['a field that is not an object', 'city', true],
  ])('asks for none: %s', (_, name, json) => expect(credentialCue(name, field(json))).toBeUndefined());

  // The form of server-everything's trigger-elicitation-request tool (@modelcontextprotocol/
  // server-everything 2026.8.31), each field as it sends it.
  const SERVER_EVERYTHING_FORM = {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
    firstLine: { title: 'String with default', type: 'string', description: 'Favorite first line of a story', default: 'It was a dark and stormy night.' },
    email: { title: 'String with email format', type: 'string', format: 'email', description: 'Your email address (will be verified, and never shared with anyone else)' },
    homepage: { type: 'string', format: 'uri', title: 'String with uri format', description: 'Portfolio / personal website' },
    birthdate: { title: 'String with date format', type: 'string', format: 'date', description: 'Your date of birth' },
    integer: { title: 'Integer', type: 'integer', description: 'Your favorite integer (do not give us your phone number, pin, or other sensitive info)', minimum: 1, maximum: 100, default: 42 },
    number: { title: 'Number in range 1-1000', type: 'number', description: 'Favorite number (there are no wrong answers)', minimum: 0, maximum: 1000, default: 3.14 },
    untitledSingleSelectEnum: { type: 'string', title: 'Untitled Single Select Enum', description: 'Choose your favorite friend', enum: ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'], default: 'Monica' },
  };

  it.each(Object.entries(SERVER_EVERYTHING_FORM))("server-everything's field %s asks for none", (name, json) => expect(credentialCue(name, field(json))).toBeUndefined());
});

describe('words', () => {
  it('splits camelCase and acronyms, and takes anything but letters and digits as a space', () => {
    expect(words('APIKey')).toBe('api key');
    expect(words('userPin_code-2')).toBe('user pin code 2');
    expect(words("Don't  share!")).toBe('don t share');
  });
});
