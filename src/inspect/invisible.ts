// The characters that hide or reorder text instead of showing it, named by their Unicode
// properties rather than listed by hand: a list misses what its author did not think of (U+180E
// MONGOLIAN VOWEL SEPARATOR, U+2064 INVISIBLE PLUS, U+115F HANGUL CHOSEONG FILLER), and each
// Unicode release adds more. The properties follow Unicode's own data as the runtime ships it.

/**
 * Every such character, as the body of a regular-expression class (flag `u` or `v`): controls
 * (`Cc`, C0 and C1), format characters (`Cf`: bidi controls, zero-width characters, invisible
 * operators, tag characters, interlinear annotation marks), default-ignorable code points (which
 * add fillers, variation selectors and reserved ranges a renderer shows as nothing), and the line
 * and paragraph separators (`Zl`, `Zp`), which break a line without being a line break.
 */
export const HIDDEN_CLASS = String.raw`\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}`;

/**
 * Scripts whose spelling needs the zero-width non-joiner or joiner between two of their letters
 * (Persian's half-space, a Devanagari half form): there the character is part of the word, not a
 * hiding place. Script_Extensions, so that combining marks shared between scripts count.
 */
const JOINING_SCRIPTS = ['Arabic', 'Syriac', 'Nko', 'Mongolian', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Khmer', 'Myanmar', 'Tibetan']
  .map((script) => String.raw`\p{scx=${script}}`)
  .join('');

/**
 * The places where a hidden character is part of what it sits in, matched at its own position
 * (sticky) with the text around it in view:
 * - a zero-width joiner between two emoji (after a skin tone or a VS16 too): one emoji;
 * - a joiner or non-joiner between two letters of a joining script;
 * - one text or emoji presentation selector right after an emoji (a keycap's digit included);
 * - one ideographic variation selector right after an ideograph, one Mongolian free variation
 *   selector right after a Mongolian letter.
 * A second selector in a row has a selector, not its base, before it, so it is never kept: a run
 * of selectors after one emoji is how text is smuggled in them.
 */
const PART_OF_TEXT = new RegExp(
  [
    String.raw`(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}]\ufe0f?)\u200d(?=\p{Extended_Pictographic})`,
    String.raw`(?<=[${JOINING_SCRIPTS}])[\u200c\u200d](?=[${JOINING_SCRIPTS}])`,
    String.raw`(?<=\p{Emoji})[\ufe0e\ufe0f]`,
    String.raw`(?<=\p{Ideographic})[\ufe00-\ufe0d\u{e0100}-\u{e01ef}]`,
    String.raw`(?<=\p{scx=Mongolian})[\u180b-\u180d\u180f]`,
  ].join('|'),
  'uy',
);

const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'gu');
const ANY_HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'u');
const LINE_SEPARATOR = /^[\p{Zl}\p{Zp}]$/u;

/**
 * Text of printable ASCII, tab and newline only: no character of it is hidden (tab and newline
 * are kept), none starts an escape sequence, and NFKC maps each to itself. Most of what servers
 * and agents say is such text, and it is cleared by this one scan instead of the Unicode
 * property classes and the normalisation it would otherwise go through.
 */
export const PLAIN_TEXT = /^[\t\n\x20-\x7e]*$/;

/** Whether the hidden character at `offset` of `text` is part of what it sits in. */
function partOfText(text: string, offset: number): boolean {
  PART_OF_TEXT.lastIndex = offset;
  return PART_OF_TEXT.test(text);
}

/**
 * `text` without its hidden characters, but for tab and newline (which show), each line or
 * paragraph separator made a newline (what it means), and the joiners and selectors that are part
 * of an emoji or a word.
 */
export function withoutHidden(text: string): string {
  if (!ANY_HIDDEN.test(text)) return text;
  return text.replace(HIDDEN, (char: string, offset: number, whole: string) => {
    if (LINE_SEPARATOR.test(char)) return '\n';
    return char === '\t' || char === '\n' || partOfText(whole, offset) ? char : '';
  });
}
