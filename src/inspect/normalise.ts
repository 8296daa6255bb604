// Normalisation before detection (docs/result-path.md): what a model would read, without the
// characters that hide text from a human reviewer or a pattern. Emoji sequences are kept whole:
// a zero-width joiner between two emoji is part of the emoji, not a hiding place.

/** ANSI CSI (ESC [ or C1 CSI) and OSC (ESC ] or C1 OSC, ended by BEL or ST) sequences. */
const ESCAPE_SEQUENCES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;

/** Zero-width and bidi controls, tag characters, and C0/C1 controls other than tab and newline. */
const INVISIBLE = /[\u200b\u200c\u2060\ufeff\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

/** A zero-width joiner not between two emoji (an emoji may carry a skin tone or a VS16). */
const STRAY_JOINER = /(?<![\p{Extended_Pictographic}\p{Emoji_Modifier}]\ufe0f?)\u200d|\u200d(?!\p{Extended_Pictographic})/gu;

export function normalise(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(INVISIBLE, '').replace(STRAY_JOINER, '').normalize('NFKC');
}
