import { createHash } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  describePieces,
  frameLine,
  type Line,
  type LineLimits,
  readLines,
  writePieces,
} from '../../servers/kit/wire.js';

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** Feeds the chunks to readLines and collects every line it reports. */
async function linesOf(chunks: (string | Buffer)[], limits: LineLimits = DEFAULT_LIMITS): Promise<Line[]> {
  const input = new PassThrough();
  const lines: Line[] = [];
  const done = readLines(input, limits, (line) => {
    lines.push(line);
  });
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

describe('readLines with a handler that returns a promise', () => {
  it('reads nothing further, not even the rest of the chunk, until the promise settles', async () => {
    const input = new PassThrough();
    const seen: string[] = [];
    let release = (): void => {};
    const done = readLines(input, DEFAULT_LIMITS, (line) => {
      seen.push(line.text);
      if (line.text === 'slow') return new Promise<void>((resolve) => (release = resolve));
    });
    input.write('a\nslow\nb\n');
    input.write('c\ntail');
    input.end();
    // Let the stream deliver everything it would.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['a', 'slow']);
    release();
    await done;
    expect(seen).toEqual(['a', 'slow', 'b', 'c', 'tail']);
  });

  it('waits for a last line without a newline to be handled before it resolves', async () => {
    const input = new PassThrough();
    let handled = false;
    const done = readLines(input, DEFAULT_LIMITS, () =>
      new Promise<void>((resolve) => setImmediate(() => ((handled = true), resolve()))),
    );
    input.end('only');
    await done;
    expect(handled).toBe(true);
  });
});

/** A writable that takes `highWaterMark` bytes and then holds every write until `flush`. */
class SlowReader extends Writable {
  readonly received: Buffer[] = [];
  private held: (() => void)[] = [];
  constructor(highWaterMark: number) {
    super({ highWaterMark });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.received.push(chunk);
    this.held.push(callback);
  }
  flush(): void {
    for (const callback of this.held.splice(0)) callback();
  }
}

describe('pieces', () => {
  const pieces = () => ['{"a":"', 'x'.repeat(100), '\u00e9', '"}'];

  it('are described as the line they join into, and written with one newline', async () => {
    const whole = pieces().join('');
    const described = { bytes: Buffer.byteLength(whole), sha256: sha256(whole), chars: whole.length };
    expect(describePieces(pieces, 1000)).toEqual({ ...described, text: whole });
    // The kept text is the line's head, however the pieces fall.
    expect(describePieces(pieces, 8)).toEqual({ ...described, text: whole.slice(0, 8) });
    expect(describePieces(pieces, 107)).toEqual({ ...described, text: whole.slice(0, 107) });
    const output = new PassThrough();
    await writePieces(output, pieces);
    output.end();
    expect(Buffer.concat(await output.toArray()).toString()).toBe(`${whole}\n`);
  });

  it('are written one at a time while the reader holds back', async () => {
    const reader = new SlowReader(1);
    const written = writePieces(reader, pieces);
    expect(reader.received).toHaveLength(1);
    for (let step = 2; step <= 4; step++) {
      reader.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(reader.received).toHaveLength(step);
    }
    reader.flush();
    await new Promise((resolve) => setImmediate(resolve));
    reader.flush();
    await written;
    expect(Buffer.concat(reader.received).toString()).toBe(`${pieces().join('')}\n`);
  });

  it('stop, and resolve, when the reader goes away midway', async () => {
    const reader = new SlowReader(1);
    const written = writePieces(reader, pieces);
    reader.destroy();
    await written;
    expect(reader.received).toHaveLength(1);
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
