// The event-stream reader (src/wire/sse.ts): the HTML standard's interpretation (data lines
// joined, event types, ids, comments, every line ending, a leading BOM), whatever the chunking,
// and each bound (an event's bytes, a stream's events, a stream's bytes) failing the read as soon
// as it is passed.

import { describe, expect, it } from 'vitest';
import { SseProblem, SseReader, type SseBounds, type SseEvent } from '../../src/wire/sse.js';

const ROOMY: SseBounds = { maxEventBytes: 1024, maxEvents: 100, maxStreamBytes: 10_000 };

/** Every event the stream dispatches when `text` arrives in chunks cut at `cuts`. */
function read(text: string | Buffer, cuts: readonly number[] = [], bounds = ROOMY): SseEvent[] {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const reader = new SseReader(bounds);
  const edges = [0, ...cuts, bytes.length];
  return edges.slice(1).flatMap((end, i) => reader.push(bytes.subarray(edges[i], end)));
}

describe('SseReader', () => {
  it('joins data lines with LF and strips one space after the colon', () => {
    expect(read('data: first\ndata:second\ndata:  third\n\n')).toEqual([{ type: 'message', data: 'first\nsecond\n third', id: undefined }]);
  });

  it('reads every line ending alike: LF, CRLF and CR', () => {
    const expected = [
      { type: 'message', data: 'a', id: '1' },
      { type: 'message', data: 'b', id: '2' },
    ];
    expect(read('id: 1\ndata: a\n\nid: 2\ndata: b\n\n')).toEqual(expected);
    expect(read('id: 1\r\ndata: a\r\n\r\nid: 2\r\ndata: b\r\n\r\n')).toEqual(expected);
    expect(read('id: 1\rdata: a\r\rid: 2\rdata: b\r\r')).toEqual(expected);
  });

  it('dispatches the same events whatever the chunks, a CRLF or a UTF-8 character split included', () => {
    const text = 'event: message\r\nid: é-1\r\ndata: {"x":"ü"}\r\n\r\n: a comment\r\ndata: 2\r\n\r\n';
    const whole = read(text);
    expect(whole).toEqual([
      { type: 'message', data: '{"x":"ü"}', id: 'é-1' },
      { type: 'message', data: '2', id: 'é-1' },
    ]);
    const length = Buffer.byteLength(text);
    for (let cut = 1; cut < length; cut++) expect(read(text, [cut])).toEqual(whole);
    expect(read(text, Array.from({ length: length - 1 }, (_, i) => i + 1))).toEqual(whole);
  });

  it('ignores comments, unknown fields and an id holding NUL, and names the type an event gives', () => {
    expect(read(': hello\nretry: 10\nfoo: bar\nid: a\0b\nevent: ping\ndata\n\n')).toEqual([{ type: 'ping', data: '', id: undefined }]);
  });

  it('dispatches nothing for a block without data, and an empty event for an empty data line', () => {
    // The spec's priming event (an id and an empty data field) is an event whose data is ''.
    expect(read('id: 7\n\nevent: x\n\n')).toEqual([]);
    expect(read('id: 7\ndata:\n\n')).toEqual([{ type: 'message', data: '', id: '7' }]);
  });

  it('keeps the last id for later events and discards an event the stream ends inside', () => {
    expect(read('id: 1\ndata: a\n\ndata: b\n\ndata: never dispatched\n')).toEqual([
      { type: 'message', data: 'a', id: '1' },
      { type: 'message', data: 'b', id: '1' },
    ]);
  });

  it('skips a byte-order mark at the start of the stream only', () => {
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('data: a\n\n')]))).toEqual([{ type: 'message', data: 'a', id: undefined }]);
  });

  it('refuses a line that is not UTF-8', () => {
    expect(() => read(Buffer.concat([Buffer.from('data: '), Buffer.from([0xff]), Buffer.from('\n\n')]))).toThrow(expect.objectContaining({ kind: 'utf8' }));
  });
});

describe("SseReader's bounds", () => {
  const bounds: SseBounds = { maxEventBytes: 32, maxEvents: 3, maxStreamBytes: 200 };

  it('reads an event of exactly its bound, and fails one byte past it', () => {
    // "data: " + 24 bytes + "\n" + "\n" is 32 bytes.
    expect(read(`data: ${'x'.repeat(24)}\n\n`, [], bounds)).toHaveLength(1);
    expect(() => read(`data: ${'x'.repeat(25)}\n\n`, [], bounds)).toThrow(expect.objectContaining({ kind: 'event-bytes' }));
  });

  it('fails a line that never ends as soon as it passes the event bound, not when it ends', () => {
    const reader = new SseReader(bounds);
    expect(reader.push(Buffer.from('data: '))).toEqual([]);
    expect(() => reader.push(Buffer.from('x'.repeat(30)))).toThrow(SseProblem);
  });

  it('counts fields toward the event they precede, and bounds a comment line alone', () => {
    expect(() => read(`id: ${'c'.repeat(20)}\nid: ${'c'.repeat(20)}\ndata: a\n\n`, [], bounds)).toThrow(expect.objectContaining({ kind: 'event-bytes' }));
    expect(read(`: ${'c'.repeat(20)}\n: ${'c'.repeat(20)}\ndata: a\n\n`, [], bounds)).toHaveLength(1);
    expect(() => read(`: ${'c'.repeat(40)}\n`, [], bounds)).toThrow(expect.objectContaining({ kind: 'event-bytes' }));
  });

  it('fails the event past the most a stream may dispatch', () => {
    expect(read('data: 1\n\ndata: 2\n\ndata: 3\n\n', [], bounds)).toHaveLength(3);
    expect(() => read('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n', [], bounds)).toThrow(expect.objectContaining({ kind: 'events' }));
  });

  it('fails a stream past its bytes, though it dispatches nothing (comments only)', () => {
    const reader = new SseReader(bounds);
    const comment = Buffer.from(': keep-alive\n');
    let problem: unknown;
    try {
      for (let i = 0; i < 100; i++) reader.push(comment);
    } catch (err) {
      problem = err;
    }
    expect(problem).toMatchObject({ kind: 'stream-bytes', message: 'an event stream longer than 200 bytes' });
  });
});
