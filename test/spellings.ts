// Generators of other spellings of one name or URI, for the property tests of the reference's
// normal forms (test/broker/normal-*.property.test.ts) and the harness judges'
// (test/harness/spellings.property.test.ts): each spelling is one a server could choose to look
// like the operator's item without being its text.

/** What names are made of in these tests: the first seed's name rule, lower case. */
export const NAME_CHARS = [...'abcdefghijklmnopqrstuvwxyz0123456789_-'];

/** Characters that show as nothing: a name read with them is the name without them. */
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u{E0041}', '\u180e'];

/** Compatibility forms of an ASCII character NFKC takes back to it: fullwidth, and mathematical letters. */
function compatible(char: string, choice: number): string {
  const code = char.codePointAt(0)!;
  const letter = /[a-z]/.test(char);
  switch (choice % 3) {
    case 0:
      return String.fromCodePoint(code + 0xfee0);
    case 1:
      // MATHEMATICAL BOLD SMALL A..Z, or the fullwidth form for what is no letter.
      return letter ? String.fromCodePoint(0x1d41a + code - 0x61) : String.fromCodePoint(code + 0xfee0);
    default:
      return letter ? String.fromCodePoint(0x1d5ba + code - 0x61) : char;
  }
}

/** `name` (NAME_CHARS) spelt otherwise, one choice a character: its case, a compatibility form, a hidden character after it. */
export function nameSpelling(name: string, choices: Iterator<number>): string {
  return [...name]
    .map((char) => {
      const choice = choices.next().value as number;
      const spelt = choice % 4 === 0 ? char.toUpperCase() : choice % 4 === 1 ? compatible(char, choice >> 2) : char;
      return choice % 5 === 0 ? spelt + INVISIBLE[(choice >> 3) % INVISIBLE.length] : spelt;
    })
    .join('');
}

/** `text` (NAME_CHARS and spaces) as a model still reads it, one choice a character: its case or a compatibility form, nothing hidden added. */
export function textSpelling(text: string, choices: Iterator<number>): string {
  return [...text]
    .map((char) => {
      const choice = choices.next().value as number;
      return char === ' ' ? char : choice % 3 === 0 ? char.toUpperCase() : choice % 3 === 1 ? compatible(char, choice >> 2) : char;
    })
    .join('');
}

/** RFC 3986's unreserved characters, less the dot (a segment of dots is a dot segment). */
export const URI_SEGMENT_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_~'];

const hex = (char: string, upper: boolean): string => {
  const code = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? code.toUpperCase() : code}`;
};

/**
 * `uri` (a scheme, an authority, a path of URI_SEGMENT_CHARS) spelt otherwise: scheme and host in
 * upper case, unreserved characters of the path percent-encoded, `./` and `x/../` segments put
 * in, the scheme's default port named.
 */
export function uriSpelling(uri: string, choices: Iterator<number>): string {
  const next = () => choices.next().value as number;
  const [, scheme, authority, path] = /^([a-z]+):\/\/([^/]*)(\/.*)$/.exec(uri)!;
  const segments = path!.split('/').slice(1).flatMap((segment) => {
    const spelt = [...segment].map((char) => (next() % 3 === 0 ? hex(char, next() % 2 === 0) : char)).join('');
    const extra = next() % 4;
    return extra === 0 ? ['.', spelt] : extra === 1 ? ['detour', '..', spelt] : [spelt];
  });
  const port = scheme === 'https' && next() % 2 === 0 ? ':443' : '';
  const upper = next() % 2 === 0;
  return `${upper ? scheme!.toUpperCase() : scheme}://${upper ? authority!.toUpperCase() : authority}${port}/${segments.join('/')}`;
}
