// Caps on what the agent is sent, counted in Unicode code points (docs/result-path.md). Text past
// a cap is cut at a code point boundary, never inside a surrogate pair, and ends with a marker
// saying how much was sent (the marker included) of how much there was.

import { codePoints } from '../inspect/bounds.js';
import { member, plain } from '../json/tree.js';
import type { JsonValue } from '../types.js';
import { writeJson } from '../json/writer.js';
import { blockText, contentBlocks, textBlock, withMembers } from './content.js';

export function truncationMarker(shown: number, total: number): string {
  return `[truncated: showing ${shown} of ${total} characters]`;
}

/** The first `count` code points of `text`. */
export function leadingCodePoints(text: string, count: number): string {
  let units = 0;
  for (let n = 0; n < count && units < text.length; n++) {
    const unit = text.charCodeAt(units);
    const paired = unit >= 0xd800 && unit <= 0xdbff && units + 1 < text.length;
    const next = paired ? text.charCodeAt(units + 1) : 0;
    units += paired && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}

/**
 * Several texts capped together at `cap` code points: when they exceed it, they are cut where the
 * budget ends, the marker ends the last text kept, and the texts after it are dropped (null).
 * Returns the texts unchanged when they fit.
 */
export function capTexts(texts: readonly string[], cap: number): { readonly texts: readonly (string | null)[]; readonly cut: boolean } {
  const total = texts.reduce((sum, text) => sum + codePoints(text), 0);
  if (total <= cap) return { texts, cut: false };
  const marker = truncationMarker(cap, total);
  let remaining = cap - codePoints(marker);
  const kept: (string | null)[] = texts.map((text) => {
    if (remaining === 0) return null;
    const part = leadingCodePoints(text, remaining);
    remaining -= codePoints(part);
    return part;
  });
  // The budget is positive (a cap leaves room for the marker), so the first text is kept.
  let last = 0;
  kept.forEach((text, i) => {
    if (text !== null) last = i;
  });
  kept[last] = `${kept[last] ?? ''}${marker}`;
  return { texts: kept, cut: true };
}

/** One text capped at `cap` code points. */
export function capText(text: string, cap: number): string {
  return capTexts([text], cap).texts[0] ?? '';
}

/** Marks a result whose structuredContent the result cap dropped. */
export const STRUCTURED_DROPPED_KEY = 'io.mcp-gauntlet/structured-dropped';

/**
 * A tool result capped at `cap` code points: its text blocks together cut with the marker, and a
 * `structuredContent` whose JSON text is past the cap dropped, with the broker's mark saying so.
 */
export function capResult(result: JsonValue, cap: number): JsonValue {
  if (result.kind !== 'object') return result;
  const blocks = contentBlocks(result);
  const texts = blocks.flatMap((block) => blockText(block) ?? []);
  const capped = capTexts(texts, cap);
  let next = 0;
  const content = blocks.flatMap((block) => {
    if (blockText(block) === undefined) return [block];
    const text = capped.texts[next++];
    return text === null || text === undefined ? [] : [text === blockText(block) ? block : textBlock(text)];
  });
  const structured = member(result, 'structuredContent');
  const drop = structured !== undefined && codePoints(writeJson(structured)) > cap;
  if (!capped.cut && !drop) return result;
  const meta = member(result, '_meta');
  const metaEntries = meta?.kind === 'object' ? meta.entries.filter(([key]) => key !== STRUCTURED_DROPPED_KEY) : [];
  return withMembers(result, [
    ['content', { kind: 'array', items: content }],
    ...(drop
      ? ([
          ['structuredContent', undefined],
          ['_meta', { kind: 'object', entries: [...metaEntries, [STRUCTURED_DROPPED_KEY, plain(true)]] }],
        ] as const)
      : []),
  ]);
}
