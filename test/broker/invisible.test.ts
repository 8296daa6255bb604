// Invisible and formatting characters are recognised by Unicode property, and removed, but for
// the joiners and selectors that are part of an emoji or of a word.

import { describe, expect, it } from 'vitest';
import { withoutHidden } from '../../src/inspect/invisible.js';
import { normalise } from '../../src/inspect/normalise.js';

describe('normalise', () => {
  it.each([
    ['U+180E MONGOLIAN VOWEL SEPARATOR', 'ig\u180enore'],
    ['U+2064 INVISIBLE PLUS', 'ig\u2064nore'],
    ['U+115F HANGUL CHOSEONG FILLER', 'ig\u115fnore'],
    ['U+3164 HANGUL FILLER', 'ig\u3164nore'],
    ['U+FFA0 HALFWIDTH HANGUL FILLER (NFKC makes it U+1160)', 'ig\uffa0nore'],
    ['U+00AD SOFT HYPHEN', 'ig\u00adnore'],
    ['U+034F COMBINING GRAPHEME JOINER', 'ig\u034fnore'],
    ['U+061C ARABIC LETTER MARK', 'ig\u061cnore'],
    ['U+200B ZERO WIDTH SPACE', 'ig\u200bnore'],
    ['U+200C ZERO WIDTH NON-JOINER between Latin letters', 'ig\u200cnore'],
    ['U+200D ZERO WIDTH JOINER between Latin letters', 'ig\u200dnore'],
    ['U+202E RIGHT-TO-LEFT OVERRIDE', 'ig\u202enore'],
    ['U+2066 LEFT-TO-RIGHT ISOLATE', 'ig\u2066nore'],
    ['U+FEFF BOM', 'ig\ufeffnore'],
    ['U+FFF9 INTERLINEAR ANNOTATION ANCHOR', 'ig\ufff9nore'],
    ['a tag character', 'ig\u{e0041}nore'],
    ['a variation selector after a letter', 'ig\ufe0fnore'],
    ['a supplementary variation selector after a letter', 'ig\u{e0101}nore'],
    ['a reserved default-ignorable code point', 'ig\u{e0fff}nore'],
    ['a C1 control', 'ig\u0085nore'],
    ['DEL', 'ig\u007fnore'],
    ['an ANSI sequence', 'ig\u001b[31mnore'],
  ])('removes %s', (_what, text) => {
    expect(normalise(text)).toBe('ignore');
  });

  it('keeps tab and newline, and makes a line or paragraph separator a newline', () => {
    expect(normalise('a\tb\nc\u2028d\u2029e\rf')).toBe('a\tb\nc\nd\nef');
  });

  it.each([
    ['a ZWJ emoji sequence', '\u{1f469}\u200d\u{1f4bb}'],
    ['a ZWJ sequence after a skin tone', '\u{1f469}\u{1f3fd}\u200d\u{1f4bb}'],
    ['a ZWJ sequence after VS16', '\u2764\ufe0f\u200d\u{1f525}'],
    ['an emoji presentation selector', '\u2764\ufe0f'],
    ['a keycap', '1\ufe0f\u20e3'],
    ['a flag', '\u{1f1ef}\u{1f1f5}'],
    ["Persian's half-space (ZWNJ)", 'می\u200cخواهم'],
    ['a Devanagari half form (ZWJ after a virama)', 'क्\u200dष'],
    ['a Devanagari ZWNJ', 'क्\u200cष'],
    ['an ideographic variation sequence', '\u845b\u{e0100}'],
    ['a Mongolian free variation selector', '\u1820\u180b'],
  ])('keeps %s whole', (_what, text) => {
    expect(normalise(text)).toBe(text.normalize('NFKC'));
  });

  it('keeps one selector after an emoji, never a run of them (text smuggled in selectors)', () => {
    expect(withoutHidden('\u{1f600}\ufe0f\ufe0f\u{e0110}\u{e0120}')).toBe('\u{1f600}\ufe0f');
    expect(withoutHidden('\u{1f600}\u{e0110}\u{e0120}')).toBe('\u{1f600}');
  });

  it('removes a joiner between an emoji and a letter, or a letter and an emoji', () => {
    expect(normalise('\u{1f469}\u200da')).toBe('\u{1f469}a');
    expect(normalise('a\u200d\u{1f4bb}')).toBe('a\u{1f4bb}');
  });

  it('leaves text without hidden characters as it is', () => {
    const text = 'Found 3 notes: 会議のメモ, تم العثور, café \u{1f600}';
    expect(withoutHidden(text)).toBe(text);
  });
});
