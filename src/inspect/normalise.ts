// Two forms of a server's text (docs/result-path.md). What is forwarded keeps the server's
// characters, less the ones that hide text from a human reviewer or a pattern (inspect/invisible.ts)
// and the terminal escape sequences: INS-1's list, stripped from what the agent reads. What
// detection searches is that text in NFKC as well, so a pattern spelled in compatibility
// characters (fullwidth letters, ligatures, superscripts) is found; the forwarded text is not
// folded, since folding changes what the server said ("x²" would read "x2"). Emoji sequences and
// the joiners some scripts spell with are kept whole in both.

import { PLAIN_TEXT, withoutHidden } from './invisible.js';

/** ANSI CSI (ESC [ or C1 CSI) and OSC (ESC ] or C1 OSC, ended by BEL or ST) sequences. */
const ESCAPE_SEQUENCES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;

/** `text` as it may be forwarded: without escape sequences and hidden characters, otherwise as written. */
export function forwardable(text: string): string {
  return PLAIN_TEXT.test(text) ? text : withoutHidden(text.replace(ESCAPE_SEQUENCES, ''));
}

/** `text` as detection searches it: its forwardable form in NFKC. */
export function normalise(text: string): string {
  return PLAIN_TEXT.test(text) ? text : normaliseFully(text);
}

/** The whole normalisation, whatever the text: what `normalise` gives for plain text too (test/broker/fast-paths.property.test.ts). */
export function normaliseFully(text: string): string {
  // Hidden characters go before NFKC, which would otherwise compose across them, and after it,
  // since a compatibility mapping can yield one (U+FFA0 HALFWIDTH HANGUL FILLER becomes U+1160).
  return withoutHidden(withoutHidden(text.replace(ESCAPE_SEQUENCES, '')).normalize('NFKC'));
}
