// The caps on what the agent is sent (src/result/cap.ts) on their own: the first code points of a
// text, never half a surrogate pair; texts capped together with the marker ending the last text
// kept and the rest dropped; and a tool result capped, its text blocks cut, its other blocks
// kept, and a structuredContent past the cap dropped with the broker's mark. result-path.test.ts
// holds the property that capped text never exceeds its cap.

import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { capResult, capText, capTexts, leadingCodePoints, STRUCTURED_DROPPED_KEY, truncationMarker } from '../../src/result/cap.js';

const EMOJI = '\u{1F600}';
const capped = (result: string, cap: number) => writeJson(capResult(readJson(result), cap));

describe('leadingCodePoints', () => {
  it.each([
    ['abc', 2, 'ab'],
    ['abc', 0, ''],
    ['abc', 5, 'abc'],
    [`${EMOJI}${EMOJI}`, 1, EMOJI],
    [`a${EMOJI}b`, 2, `a${EMOJI}`],
    ['\uD83Da', 1, '\uD83D'],
    ['\uD83D', 1, '\uD83D'],
    ['\uDE00\uDE00', 1, '\uDE00'],
    ['\uD83D\uD83D\uDE00', 2, '\uD83D\uD83D\uDE00'],
    ['\uDBFF\uDFFFx', 1, '\uDBFF\uDFFF'],
    ['\uD800\uDC00x', 1, '\uD800\uDC00'],
    ['\uD7FF\uDC00', 1, '\uD7FF'],
    ['\uD83D\uE000', 1, '\uD83D'],
  ])('takes of %j the first %i code points: %j', (text, count, expected) => {
    expect(leadingCodePoints(text, count)).toBe(expected);
  });
});

describe('capTexts and capText', () => {
  it('says how much was shown, the marker included, of how much there was', () => {
    expect(truncationMarker(40, 100)).toBe('[truncated: showing 40 of 100 characters]');
    const marker = truncationMarker(50, 100);
    expect(capText('a'.repeat(100), 50)).toBe(`${'a'.repeat(50 - marker.length)}${marker}`);
    expect([...capText('a'.repeat(100), 50)]).toHaveLength(50);
    expect(capText('a'.repeat(50), 50)).toBe('a'.repeat(50));
  });

  it('counts code points, not UTF-16 units, for the total and the budget', () => {
    const marker = truncationMarker(50, 60);
    expect(capText(EMOJI.repeat(50), 50)).toBe(EMOJI.repeat(50));
    expect(capText(EMOJI.repeat(60), 50)).toBe(`${EMOJI.repeat(50 - marker.length)}${marker}`);
  });

  it('cuts where the budget ends across texts, ends the last text kept with the marker, and drops the rest', () => {
    const marker = truncationMarker(60, 90);
    const budget = 60 - marker.length;
    const { texts, cut } = capTexts(['a'.repeat(10), 'b'.repeat(30), 'c'.repeat(50)], 60);
    expect(cut).toBe(true);
    expect(texts).toEqual(['a'.repeat(10), `${'b'.repeat(budget - 10)}${marker}`, null]);
    // A budget ending exactly at a text's end puts the marker on that text.
    const exact = capTexts(['a'.repeat(budget), 'b'.repeat(50)], 60);
    expect(exact.texts).toEqual([`${'a'.repeat(budget)}${truncationMarker(60, budget + 50)}`, null]);
  });

  it('gives the texts back as they are when they fit together', () => {
    const given = ['a', 'b'];
    expect(capTexts(given, 2)).toEqual({ texts: given, cut: false });
    expect(capTexts(given, 2).texts).toBe(given);
  });
});

describe('capResult', () => {
  it('passes what is not an object, and a result within the cap, as it came', () => {
    const within = readJson('{"content":[{"type":"text","text":"short"}],"structuredContent":{"n":1}}');
    expect(capResult(within, 100)).toBe(within);
    const list = readJson('[1]');
    expect(capResult(list, 1)).toBe(list);
  });

  it('cuts the text blocks together, keeps the other blocks and members, and drops the text blocks past the budget', () => {
    const result = `{"content":[{"type":"text","text":"${'a'.repeat(20)}"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"${'b'.repeat(200)}"},{"type":"text","text":"gone"}],"isError":false}`;
    const marker = truncationMarker(100, 224);
    expect(capped(result, 100)).toBe(
      `{"content":[{"type":"text","text":"${'a'.repeat(20)}"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"${'b'.repeat(80 - marker.length)}${marker}"}],"isError":false}`,
    );
  });

  it('drops a structuredContent whose JSON text is past the cap, and marks the result, keeping the rest of _meta', () => {
    const big = `{"text":"${'x'.repeat(100)}"}`;
    expect(capped(`{"content":[],"structuredContent":${big},"_meta":{"k":1,"${STRUCTURED_DROPPED_KEY}":false}}`, 50)).toBe(
      `{"content":[],"_meta":{"k":1,"${STRUCTURED_DROPPED_KEY}":true}}`,
    );
    expect(capped(`{"content":[],"structuredContent":${big}}`, 50)).toBe(`{"content":[],"_meta":{"${STRUCTURED_DROPPED_KEY}":true}}`);
    // At the cap exactly it stays.
    const exact = `{"content":[],"structuredContent":"${'x'.repeat(48)}"}`;
    expect(capped(exact, 50)).toBe(exact);
  });

  it('keeps a structuredContent within the cap while cutting the text', () => {
    const marker = truncationMarker(60, 100);
    expect(capped(`{"content":[{"type":"text","text":"${'a'.repeat(100)}"}],"structuredContent":{"n":1}}`, 60)).toBe(
      `{"content":[{"type":"text","text":"${'a'.repeat(60 - marker.length)}${marker}"}],"structuredContent":{"n":1}}`,
    );
  });
});
