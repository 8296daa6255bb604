// The harness's side of the adapter protocol on hostile frames: an adapter process that answers
// a request with any lines at all (not JSON, JSON of any shape, answers to other ids, a valid
// answer among garbage, partial lines), then exits, yields the request's valid result or an
// AdapterError naming the method, never another exception and never a hang.
// `npm test` runs a fixed seed; `npm run fuzz` a random one (test/fuzz.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdapterError } from '../../harness/candidates/adapter-error.js';
import { AdapterProcess } from '../../harness/candidates/adapter-process.js';
import { ADAPTER_PROTOCOL } from '../../harness/candidates/types.js';
import { protocolViolation } from '../../harness/candidates/protocol-schemas.js';
import { fuzzParameters } from '../fuzz.js';

// Each case starts a process: a few cases here, a twentieth of the others' under `npm run fuzz`.
const PARAMETERS = fuzzParameters('adapter-protocol', 4, 20);
const TIMEOUT_MS = Math.max(60_000, PARAMETERS.numRuns * 5_000);

/** A fake adapter: after the first request arrives, writes the given text (base64 in argv, which holds no NUL) to stdout and exits. */
const FAKE = `process.stdin.once('data', () => process.stdout.write(Buffer.from(process.argv[1], 'base64'), () => process.exit(0)));`;

const HELLO = { protocol: ADAPTER_PROTOCOL, name: 'fuzzed', version: '0', claims: [], hooks: [], upstreams: ['command'], config_flaws: false, unapplied: [] };
const frame = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.json({ maxDepth: 2 }),
  fc.record({ id: fc.oneof(fc.constant(1), fc.integer(), fc.string()), result: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
  fc.record({ id: fc.constant(1), error: fc.oneof(fc.record({ message: fc.string() }), fc.jsonValue({ maxDepth: 1 })) }).map((o) => JSON.stringify(o)),
  fc.constant(JSON.stringify({ id: 1, result: HELLO })),
  fc.constantFrom('', '\r', '{"id":1,', '\u0000', '{"id":1,"result":{},"result":{}}'),
);
const output = fc.tuple(fc.array(frame, { maxLength: 5 }), fc.boolean()).map(([frames, ended]) => frames.join('\n') + (ended ? '\n' : ''));

describe('the adapter protocol on hostile frames', () => {
  it('gives the valid result or an AdapterError naming the method', async () => {
    await fc.assert(
      fc.asyncProperty(output, async (text) => {
        const adapter = new AdapterProcess('fuzzed adapter', process.execPath, ['-e', FAKE, Buffer.from(text).toString('base64')]);
        try {
          const result = await adapter.request('hello', { protocol: ADAPTER_PROTOCOL }, 20_000);
          expect(protocolViolation('hello.answer', { id: 1, result })).toBeUndefined();
        } catch (error) {
          expect(error).toBeInstanceOf(AdapterError);
          expect((error as Error).message).toContain('fuzzed adapter: hello: ');
        } finally {
          await adapter.end();
        }
      }),
      PARAMETERS,
    );
  }, TIMEOUT_MS);
});
