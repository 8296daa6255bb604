// The frame reader on hostile bytes: however a peer's stream is cut into chunks, the lines read
// are those of a model that splits the whole stream at once (valid UTF-8 lines, \r\n endings,
// blank lines skipped, over-long lines reported with their first and last bytes); and any line
// becomes a JSON-RPC message or an `unreadable` with a JSON-RPC code, never an exception.
// `npm test` runs a fixed seed; `npm run fuzz` a random one (test/fuzz.ts).

import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR, parseMessage, requestLine, resultLine } from '../../src/wire/jsonrpc.js';
import { LineSplitter, OVERLONG_KEPT_BYTES } from '../../src/wire/lines.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { fuzzParameters } from '../fuzz.js';

const PARAMETERS = fuzzParameters('wire', 100);

type Event = { line: string } | { bad: string } | { head: string; tail: string };

/** The model: the whole stream split at every newline; what follows the last newline is not a line yet. */
function model(stream: Buffer, maxLineBytes: number): Event[] {
  const events: Event[] = [];
  const pieces: Buffer[] = [];
  for (let start = 0, nl = stream.indexOf(0x0a); nl !== -1; start = nl + 1, nl = stream.indexOf(0x0a, start)) pieces.push(stream.subarray(start, nl));
  for (const piece of pieces) {
    const body = piece.at(-1) === 0x0d ? piece.subarray(0, -1) : piece;
    // An over-long line's tail: its last bytes kept, less the \r of a \r\n ending.
    const last = piece.subarray(-OVERLONG_KEPT_BYTES);
    const tail = last.at(-1) === 0x0d ? last.subarray(0, -1) : last;
    if (piece.length > maxLineBytes) events.push({ head: piece.subarray(0, OVERLONG_KEPT_BYTES).toString('hex'), tail: tail.toString('hex') });
    else if (body.length === 0) continue;
    else if (!isUtf8(body)) events.push({ bad: 'a line that is not valid UTF-8' });
    else events.push({ line: body.toString('utf8') });
  }
  return events;
}

function split(stream: Buffer, cuts: number[], maxLineBytes: number): Event[] {
  const events: Event[] = [];
  const splitter = new LineSplitter(
    (line) => events.push({ line }),
    (bad) => events.push({ bad }),
    maxLineBytes,
    ({ head, tail }) => events.push({ head: head.toString('hex'), tail: tail.toString('hex') }),
  );
  const at = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...at, stream.length]) {
    splitter.push(stream.subarray(from, to));
    from = to;
  }
  return events;
}

/** Lines as a hostile peer writes them: text, invalid UTF-8, stray \r, blank lines, long runs. */
const line = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes.filter((b) => b !== 0x0a))),
  fc.constantFrom(Buffer.from(''), Buffer.from('\r'), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('\u00e9\r')),
  fc.tuple(fc.integer({ min: 1, max: 700 }), fc.constantFrom('x', '\r', 'é')).map(([n, ch]) => Buffer.from(ch.repeat(n))),
);
const stream = fc.tuple(fc.array(line, { maxLength: 8 }), fc.boolean()).map(([lines, ended]) => Buffer.concat(lines.flatMap((l, i) => (i < lines.length - 1 || ended ? [l, Buffer.from('\n')] : [l]))));

describe('LineSplitter against a model', () => {
  it('reads the same lines however the stream is cut into chunks', () => {
    fc.assert(
      // A bound of at least the bytes kept, as every bound the broker uses (16 MiB) is: below it a
      // line crossing the bound in its first chunk has fewer bytes to keep than the model's head.
      fc.property(stream, fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: OVERLONG_KEPT_BYTES, max: 600 }), (bytes, cuts, max) => {
        expect(split(bytes, cuts, max)).toEqual(model(bytes, max));
      }),
      // Found by this property: a line cut after its first byte, then over the bound in its next
      // chunk, kept only that byte as its head, so the id that places an over-long answer was
      // lost to how the pipe cut the stream (fixed in lines.ts on the perf branch, taken here).
      { ...PARAMETERS, examples: [[Buffer.from(`{${'x'.repeat(400)}\n`), [1], OVERLONG_KEPT_BYTES]] },
    );
  });
});

/** JSON-RPC-shaped text with hostile members: wrong types, both result and error, batches. */
const member = fc.oneof(
  fc.constant(['jsonrpc', '"2.0"']),
  fc.constantFrom(['jsonrpc', '"1.0"'], ['jsonrpc', '2.0']),
  fc.constantFrom(['id', '1'], ['id', '"a"'], ['id', 'null'], ['id', '{}'], ['id', '9007199254740993'], ['id', '1.5e400']),
  fc.constantFrom(['method', '"tools/call"'], ['method', '7']),
  fc.constantFrom(['params', '{}'], ['params', '[]'], ['result', '{}'], ['result', 'null']),
  fc.constantFrom(['error', '{"code":-32000,"message":"x"}'], ['error', '{"code":1.5,"message":"x"}'], ['error', '{"code":1}'], ['error', '"x"']),
);
const envelope = fc.oneof(
  fc.uniqueArray(member, { maxLength: 5, selector: ([k]) => k }).map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
  fc.array(member, { maxLength: 4 }).map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
  fc.json().map((text) => `[${text}]`),
  fc.string({ maxLength: 30 }),
);

describe('parseMessage on hostile lines', () => {
  it('gives a message or an unreadable with a JSON-RPC code, and a message only from a JSON-RPC 2.0 object', () => {
    fc.assert(
      fc.property(envelope, (text) => {
        const message = parseMessage(text);
        if (message.kind === 'unreadable') {
          expect([ERROR.parse, ERROR.invalidRequest]).toContain(message.code);
          return;
        }
        const value = JSON.parse(text) as Record<string, unknown>;
        expect(value['jsonrpc']).toBe('2.0');
        if (message.kind === 'request' || message.kind === 'notification') expect(typeof value['method']).toBe('string');
        else expect('result' in value !== 'error' in value).toBe(true);
      }),
      PARAMETERS,
    );
  });

  it('reads back the request and the result it writes, ids and params digit for digit', () => {
    const id = fc.oneof(fc.bigInt().map((n) => readJson(String(n))), fc.string().map((s) => readJson(JSON.stringify(s))));
    const params = fc.json().map((text) => readJson(text));
    fc.assert(
      fc.property(id, fc.string(), params, (requestId, method, value) => {
        const request = parseMessage(requestLine(requestId, method, value));
        expect(request).toEqual({ kind: 'request', id: requestId, method, params: value });
        const result = parseMessage(resultLine(requestId, value));
        expect(result.kind === 'result' && writeJson(result.result)).toBe(writeJson(value));
      }),
      PARAMETERS,
    );
  });
});
