// Text the server chose (tool names, stderr, annotations quoted in reasons) must not be able to
// forge lines, reorder what a reader sees, or hide characters in the load report or on stderr.
// Each such character is written as a visible `\u{…}` escape; a backslash is doubled first, so
// the escaped text still tells exactly what the server sent.

// C0 and C1 controls, DEL, soft hyphen, combining grapheme joiner, Arabic letter mark, Mongolian
// vowel separator, zero-width and bidi marks, line and paragraph separators, bidi embeddings
// and isolates, invisible operators, the BOM, interlinear annotation marks and tag characters.
const HIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;

export function escapeServerText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)?.toString(16) ?? ''}}`);
}
