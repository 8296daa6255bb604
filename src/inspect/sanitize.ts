// Text the server chose (tool names, stderr, annotations quoted in reasons, error messages) must
// not be able to forge lines, reorder what a reader sees, or hide characters in the load report,
// on stderr or in what the agent is told. Each hidden character (inspect/invisible.ts, by Unicode
// property) is written as a visible `\u{…}` escape; a backslash is doubled first, so the escaped
// text still tells exactly what the server sent. Unlike normalisation nothing is kept for context:
// escaped text is for exact reading, where a visible joiner costs nothing.

import { HIDDEN_CLASS } from './invisible.js';

const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'gu');

export function escapeServerText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)?.toString(16) ?? ''}}`);
}
