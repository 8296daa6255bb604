// Line framing for stdio: bounded, strict UTF-8, \r\n tolerated, and resynchronised after an
// over-long line.

import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/wire/lines.js';

function split(chunks: (string | Buffer)[], max = 16): { lines: string[]; problems: string[] } {
  const lines: string[] = [];
  const problems: string[] = [];
  const splitter = new LineSplitter(
    (line) => lines.push(line),
    (problem) => problems.push(problem),
    max,
  );
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return { lines, problems };
}

describe('LineSplitter', () => {
  it('splits on newlines across chunks, strips \\r and skips blank lines', () => {
    expect(split(['ab', 'c\r\nd', 'e\n\n\r\nf\n', 'g'])).toEqual({ lines: ['abc', 'de', 'f'], problems: [] });
  });

  it('keeps a multi-byte character split across chunks', () => {
    const bytes = Buffer.from('é\n');
    expect(split([bytes.subarray(0, 1), bytes.subarray(1)]).lines).toEqual(['é']);
  });

  it('refuses invalid UTF-8 instead of replacing it', () => {
    expect(split([Buffer.from([0x61, 0xff, 0x0a]), 'ok\n'])).toEqual({
      lines: ['ok'],
      problems: ['a line that is not valid UTF-8'],
    });
  });

  it('reports an over-long line once and resumes at the next line', () => {
    expect(split(['0123456789', '0123456789', '01234\nnext\n'], 16)).toEqual({
      lines: ['next'],
      problems: ['a line longer than 16 bytes'],
    });
    expect(split(['01234567890123456789\nnext\n'], 16)).toEqual({
      lines: ['next'],
      problems: ['a line longer than 16 bytes'],
    });
    expect(split(['0123456789012345\n'], 16).lines).toEqual(['0123456789012345']);
  });

  it('tells that a line went over the bound as soon as it does, with its start, and its end once it ends', () => {
    const events: string[] = [];
    const splitter = new LineSplitter(
      (line) => events.push(`line ${line}`),
      (problem) => events.push(`bad ${problem}`),
      16,
      ({ head, tail }) => events.push(`ended ${head.toString()}|${tail.toString()}`),
      (head) => events.push(`begun ${head.toString()}`),
    );
    splitter.push(Buffer.from('{"id":7,'));
    splitter.push(Buffer.from('"result":"0123456789'));
    expect(events).toEqual(['begun {"id":7,"result":"0123456789']);
    for (let i = 0; i < 100; i++) splitter.push(Buffer.from('x'.repeat(1000)));
    expect(events).toHaveLength(1);
    splitter.push(Buffer.from('"}\nnext\n'));
    expect(events.slice(1)).toEqual([`ended {"id":7,"result":"0123456789|${'x'.repeat(254)}"}`, 'line next']);
  });

  it("keeps an over-long line's end without its \\r, however the line ended", () => {
    const tails: string[] = [];
    const splitter = new LineSplitter(() => undefined, () => undefined, 16, ({ tail }) => tails.push(tail.toString()));
    splitter.push(Buffer.from(`{"result":"${'x'.repeat(40)}","id":7}\r\n`));
    splitter.push(Buffer.from(`{"result":"${'x'.repeat(40)}",`));
    splitter.push(Buffer.from('"id":8}\r'));
    splitter.push(Buffer.from('\n'));
    expect(tails).toEqual([`{"result":"${'x'.repeat(40)}","id":7}`, `{"result":"${'x'.repeat(40)}","id":8}`]);
  });
});
