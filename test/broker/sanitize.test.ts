// What the server chose is made visible before it reaches the load report or stderr.

import { describe, expect, it } from 'vitest';
import { escapeServerText } from '../../src/inspect/sanitize.js';

describe('escapeServerText', () => {
  it.each([
    ['plain_tool-name.v2', 'plain_tool-name.v2'],
    ['a\nb\r\tc', 'a\\u{a}b\\u{d}\\u{9}c'],
    ['\u001b[31mred', '\\u{1b}[31mred'],
    ['\u0085\u009b', '\\u{85}\\u{9b}'],
    ['abc\u202edcba', 'abc\\u{202e}dcba'],
    ['a\u2066b\u2069', 'a\\u{2066}b\\u{2069}'],
    ['zero\u200bwidth\u200d\ufeff', 'zero\\u{200b}width\\u{200d}\\u{feff}'],
    ['line\u2028para\u2029', 'line\\u{2028}para\\u{2029}'],
    ['tag\u{e0041}\u{e007f}', 'tag\\u{e0041}\\u{e007f}'],
    ['back\\u{202e}slash', 'back\\\\u{202e}slash'],
    ['mongolian\u180e plus\u2064 filler\u115f', 'mongolian\\u{180e} plus\\u{2064} filler\\u{115f}'],
    ['soft\u00adhyphen cgj\u034f vs\ufe0f', 'soft\\u{ad}hyphen cgj\\u{34f} vs\\u{fe0f}'],
    ['caf\u00e9 \u{1f600}', 'caf\u00e9 \u{1f600}'],
  ])('%j becomes %j', (text, escaped) => {
    expect(escapeServerText(text)).toBe(escaped);
  });
});
