import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, frameLine, type Line, type LineLimits, readLines } from '../../servers/kit/wire.js';

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** Feeds the chunks to readLines and collects every line it reports. */
async function linesOf(chunks: (string | Buffer)[], limits: LineLimits = DEFAULT_LIMITS): Promise<Line[]> {
  const input = new PassThrough();
  const lines: Line[] = [];
  const done = readLines(input, limits, (line) => lines.push(line));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await done;
  return lines;
}

describe('readLines', () => {
  it('splits on LF, drops one CR before it, and keeps a last line with no newline', async () => {
    const lines = await linesOf(['{"a":1}\r\n{"b"', ':2}\n\n', 'tail']);
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}', '', 'tail']);
    expect(lines[0]).toEqual({ text: '{"a":1}', bytes: 7, sha256: sha256('{"a":1}'), complete: true });
  });

  it('keeps a CR that does not end the line', async () => {
    const [line] = await linesOf(['a\rb\r\r\n']);
    expect(line!.text).toBe('a\rb\r');
  });

  it('measures bytes, not characters, and decodes characters split across chunks', async () => {
    const snowman = Buffer.from('\u2603', 'utf8');
    const [line] = await linesOf([snowman.subarray(0, 1), snowman.subarray(1), '\n']);
    expect(line).toEqual({ text: '\u2603', bytes: 3, sha256: sha256('\u2603'), complete: true });
  });

  it('hashes and counts an overlong line whole but keeps only its head', async () => {
    const limits = { maxLineBytes: 10, keepBytes: 4 };
    const lines = await linesOf(['abcdefgh', 'ijklm\r', 'nop\r', '\nshort\n'], limits);
    expect(lines).toEqual([
      { text: 'abcd', bytes: 17, sha256: sha256('abcdefghijklm\rnop'), complete: false },
      { text: 'short', bytes: 5, sha256: sha256('short'), complete: true },
    ]);
  });
});

describe('frameLine', () => {
  it('appends the newline and describes the line without it', () => {
    const { frame, bytes, sha256: hash } = frameLine('{"x":"\u00e9"}');
    expect(frame.toString('utf8')).toBe('{"x":"\u00e9"}\n');
    expect(bytes).toBe(10);
    expect(hash).toBe(sha256('{"x":"\u00e9"}'));
  });
});
