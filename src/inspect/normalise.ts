// Normalisation before detection (docs/result-path.md): what a model would read, without the
// characters that hide text from a human reviewer or a pattern (inspect/invisible.ts), in NFKC.
// Emoji sequences and the joiners some scripts spell with are kept whole.

import { PLAIN_TEXT, withoutHidden } from './invisible.js';

/** ANSI CSI (ESC [ or C1 CSI) and OSC (ESC ] or C1 OSC, ended by BEL or ST) sequences. */
const ESCAPE_SEQUENCES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;

export function normalise(text: string): string {
  return PLAIN_TEXT.test(text) ? text : normaliseFully(text);
}

/** The whole normalisation, whatever the text: what `normalise` gives for plain text too (test/broker/fast-paths.property.test.ts). */
export function normaliseFully(text: string): string {
  // Hidden characters go before NFKC, which would otherwise compose across them, and after it,
  // since a compatibility mapping can yield one (U+FFA0 HALFWIDTH HANGUL FILLER becomes U+1160).
  return withoutHidden(withoutHidden(text.replace(ESCAPE_SEQUENCES, '')).normalize('NFKC'));
}
