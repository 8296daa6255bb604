// The result guards called on their own, on crafted results: what broker-markers-only clears from
// `_meta`, when output-valid and effect-contract judge at all (not for a server error, not
// without a schema or contract) and the exact refusal each gives after the tool ran, the mark a
// confirmed write gets, and what withhold-uninspectable puts in place of content the broker cannot
// inspect. result-path.test.ts shows them in the session's result path.

import { describe, expect, it } from 'vitest';
import { MAX_PASSED_NON_TEXT } from '../../src/result/non-text.js';
import { brokerMarkersOnly, effectContract, outputValid, serverErrorIsToolError, VERIFIED_KEY, withholdUninspectable } from '../../src/guards/result.js';
import type { ResultGuard, ResultSubject } from '../../src/guards/types.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { Contract, JsonValue, RegisteredTool, Validator } from '../../src/types.js';

/** A registered tool with what the result guards read; the rest, which they never read, left out. */
const toolWith = (over: { outputValidator?: Validator; contract?: Contract; effect?: string }) =>
  ({ tool: 'write_note', name: 'write_note', effect: over.effect ?? 'local_change', outputValidator: over.outputValidator, rule: { contract: over.contract } }) as unknown as RegisteredTool;

const READER = toolWith({ effect: 'read_only' });
const CONTRACT: Contract = {
  readbackTool: 'read_note',
  readbackArguments: [['id', { from: 'result', pointer: '/id' }]],
  checks: [{ left: { from: 'readback', pointer: '/text' }, op: 'equals', right: { from: 'arguments', pointer: '/text' } }],
};

function subject(over: Partial<ResultSubject> & { read?: () => Promise<JsonValue> } = {}): ResultSubject {
  return {
    tool: undefined,
    args: readJson('{"text":"hello"}') as ResultSubject['args'],
    limits: {} as ResultSubject['limits'],
    nonText: 'withhold',
    serverError: false,
    registered: (name) => (name === 'read_note' ? READER : undefined),
    forward: over.read ?? (async () => readJson('{"content":[],"structuredContent":{"text":"hello"}}')),
    ...over,
  };
}

/** The verdict, with a passed result written out as text. */
async function judge(guard: ResultGuard, result: string, over: Parameters<typeof subject>[0] = {}) {
  const verdict = await guard.check(readJson(result), subject(over));
  return verdict.kind === 'pass' ? { ...verdict, result: writeJson(verdict.result) } : verdict;
}
const afterRun = (code: string, sentence: string, fields = {}) => ({
  kind: 'refuse',
  refusal: { code, sentence: `the call already ran, and must not be retried: ${sentence}`, fields: { already_ran: true, retry: false, ...fields } },
});

describe('broker-markers-only', () => {
  it('clears the broker\u2019s namespace from _meta and keeps the server\u2019s own keys', async () => {
    const result = `{"content":[],"_meta":{"io.mcp-gauntlet/verified":true,"app/k":1,"io.mcp-gauntlet/receipt":"x"}}`;
    expect(await judge(brokerMarkersOnly, result)).toEqual({ kind: 'pass', result: '{"content":[],"_meta":{"app/k":1}}' });
  });

  it.each([
    ['a result with no _meta', '{"content":[]}'],
    ['a _meta that is not an object', '{"content":[],"_meta":"io.mcp-gauntlet/verified"}'],
    ['a _meta of the server\u2019s own keys only', '{"content":[],"_meta":{"io.mcp-gauntlet":1,"app/io.mcp-gauntlet/x":2}}'],
    ['a result that is not an object', '["io.mcp-gauntlet/verified"]'],
  ])('passes %s untouched', async (_, result) => {
    const given = readJson(result);
    expect(await brokerMarkersOnly.check(given, subject())).toEqual({ kind: 'pass', result: given });
    expect(((await brokerMarkersOnly.check(given, subject())) as { result: JsonValue }).result).toBe(given);
  });
});

describe('server-error-is-tool-error', () => {
  it.each([
    ['{"content":[],"isError":true}', true],
    ['{"content":[],"isError":false}', false],
    ['{"content":[],"isError":"true"}', false],
    ['{"content":[]}', false],
    ['[{"isError":true}]', false],
  ])('reads %s as a server error: %s', async (result, serverError) => {
    expect(await judge(serverErrorIsToolError, result)).toEqual({ kind: 'pass', result, serverError });
  });
});

describe('output-valid', () => {
  const validator: Validator = (value) => (writeJson(value) === '{"id":1}' ? [] : ['/id must be 1']);
  const withSchema = { tool: toolWith({ outputValidator: validator }) };
  const INVALID = 'output_schema_invalid';
  const SENTENCE = "its structuredContent does not satisfy the tool's output schema.";

  it('passes structuredContent that satisfies the output schema', async () => {
    expect(await judge(outputValid, '{"content":[],"structuredContent":{"id":1}}', withSchema)).toEqual({ kind: 'pass', result: '{"content":[],"structuredContent":{"id":1}}' });
  });

  it.each([
    ['structuredContent the schema refuses', '{"content":[],"structuredContent":{"id":2}}', ['/id must be 1']],
    ['no structuredContent', '{"content":[]}', ['the tool has an output schema, and the result has no structuredContent']],
    ['a result that is not an object', '[{"id":1}]', ['the tool has an output schema, and the result has no structuredContent']],
  ])('refuses %s, after the tool ran, with the validator\u2019s errors', async (_, result, errors) => {
    expect(await judge(outputValid, result, withSchema)).toEqual(afterRun(INVALID, SENTENCE, { errors }));
  });

  it.each([
    ['a tool without an output schema', { tool: toolWith({}) }],
    ['a call to no registered tool', {}],
    ['a server error', { ...withSchema, serverError: true }],
  ])('does not judge the result of %s', async (_, over) => {
    expect(await judge(outputValid, '{"content":[]}', over)).toEqual({ kind: 'pass', result: '{"content":[]}' });
  });
});

describe('effect-contract', () => {
  const writer = { tool: toolWith({ contract: CONTRACT }) };
  const WRITTEN = '{"content":[],"structuredContent":{"id":7}}';
  const unverified = (why: string) => afterRun('verification_failed', `its effect could not be confirmed (${why}); it needs manual review.`);

  it('marks a write the read-back confirms, replacing any mark of the same key and keeping the rest of _meta', async () => {
    expect(await judge(effectContract, WRITTEN, writer)).toEqual({ kind: 'pass', result: `{"content":[],"structuredContent":{"id":7},"_meta":{"${VERIFIED_KEY}":true}}` });
    const marked = `{"content":[],"structuredContent":{"id":7},"_meta":{"${VERIFIED_KEY}":false,"app/k":1}}`;
    expect(await judge(effectContract, marked, writer)).toEqual({ kind: 'pass', result: `{"content":[],"structuredContent":{"id":7},"_meta":{"app/k":1,"${VERIFIED_KEY}":true}}` });
  });

  it('asks the read-back tool with the arguments the contract takes from the call', async () => {
    const asked: string[] = [];
    const read = async () => readJson('{"content":[],"structuredContent":{"text":"hello"}}');
    const forward = async (tool: RegisteredTool, args: JsonValue) => {
      asked.push(`${tool.effect} ${writeJson(args)}`);
      return read();
    };
    await effectContract.check(readJson(WRITTEN), { ...subject(), ...writer, forward });
    expect(asked).toEqual(['read_only {"id":7}']);
  });

  it.each([
    ['the read-back argument has no value', '{"content":[]}', {}, 'the read-back argument "id" has no value at result /id'],
    ['the read-back tool is not registered', WRITTEN, { registered: () => undefined }, 'the read-back tool read_note is not a registered read-only tool'],
    ['the read-back tool is not read-only', WRITTEN, { registered: () => toolWith({}) }, 'the read-back tool read_note is not a registered read-only tool'],
    ['the read-back throws', WRITTEN, { read: () => Promise.reject(new Error('the server closed')) }, 'the read-back failed: the server closed'],
    ['the read-back is a server error', WRITTEN, { read: async () => readJson('{"content":[],"isError":true,"structuredContent":{"text":"hello"}}') }, 'the read-back reported an error'],
    ['the read-back is not an object', WRITTEN, { read: async () => readJson('[{"text":"hello"}]') }, 'the read-back reported an error'],
  ])('refuses when %s', async (_, result, over, why) => {
    expect(await judge(effectContract, result, { ...writer, ...over })).toEqual(unverified(why));
  });

  it('refuses a write the read-back contradicts, saying which check failed', async () => {
    const verdict = await judge(effectContract, WRITTEN, { ...writer, read: async () => readJson('{"content":[],"structuredContent":{"text":"bye"}}') });
    expect(verdict).toEqual(unverified('readback /text equals arguments /text does not hold'));
  });

  it.each([
    ['a tool without a contract', '{"content":[]}', { tool: toolWith({}) }],
    ['a tool with no rule (the classified guard disabled)', '{"content":[]}', { tool: { ...toolWith({}), rule: undefined } }],
    ['a call to no registered tool', '{"content":[]}', {}],
    ['a server error', WRITTEN, { ...writer, serverError: true }],
    ['a result that is not an object', '[1]', writer],
  ])('does not judge %s', async (_, result, over) => {
    expect(await judge(effectContract, result, { ...over, read: () => Promise.reject(new Error('not to be called')) })).toEqual({ kind: 'pass', result });
  });
});

describe('withhold-uninspectable', () => {
  it('puts a placeholder in place of each block without text, and keeps text blocks', async () => {
    const result = '{"content":[{"type":"text","text":"ok"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource","resource":{"uri":"file:///k","blob":"AA"}},{"type":"text"}],"isError":false}';
    expect(await judge(withholdUninspectable, result)).toEqual({
      kind: 'pass',
      result: '{"content":[{"type":"text","text":"ok"},{"type":"text","text":"[withheld: image image/png]"},{"type":"text","text":"[withheld: resource file:///k]"},{"type":"text","text":"[withheld: text]"}],"isError":false}',
    });
  });

  it('takes a block for text only by its type, and withholds content that is no list of blocks whole', async () => {
    // An image block that also carries a "text" member is still an image: the text is not what the agent would be shown.
    const disguised = '{"content":[{"type":"image","data":"AAAA","mimeType":"image/png","text":"see the note"},"a bare string"]}';
    expect(await judge(withholdUninspectable, disguised)).toEqual({
      kind: 'pass',
      result: '{"content":[{"type":"text","text":"[withheld: image image/png]"},{"type":"text","text":"[withheld: content]"}]}',
    });
    expect(await judge(withholdUninspectable, '{"content":{"type":"text","text":"not a list"}}')).toEqual({ kind: 'pass', result: '{"content":[]}' });
  });

  it.each([
    ['a result with no content', '{"structuredContent":{"data":"AAAA"}}'],
    ['a result that is not an object', '[{"type":"image","data":"AAAA"}]'],
  ])('passes %s as it came', async (_, result) => expect(await judge(withholdUninspectable, result)).toEqual({ kind: 'pass', result }));

  describe('with non_text: pass', () => {
    const passing = { nonText: 'pass' as const };
    it('passes well-formed images, audio, links and embedded resources rebuilt from their protocol fields only', async () => {
      const result =
        '{"content":[{"type":"image","data":"AAAA","mimeType":"IMAGE/PNG","_meta":{"x":1},"icon":"y","annotations":{"audience":["user"],"priority":1,"extra":2}},' +
        '{"type":"audio","data":"AAA=","mimeType":"audio/wav"},' +
        '{"type":"resource_link","uri":"file:///n/a.txt","name":"a","description":"A note","mimeType":"text/plain","size":12,"extra":true},' +
        '{"type":"resource","resource":{"uri":"test://r","mimeType":"text/plain","text":"embedded","extra":1}},' +
        '{"type":"resource","resource":{"uri":"test://b","blob":"AA=="}}]}';
      expect(await judge(withholdUninspectable, result, passing)).toEqual({
        kind: 'pass',
        result:
          '{"content":[{"type":"image","data":"AAAA","mimeType":"image/png","annotations":{"audience":["user"],"priority":1}},' +
          '{"type":"audio","data":"AAA=","mimeType":"audio/wav"},' +
          '{"type":"resource_link","uri":"file:///n/a.txt","name":"a","description":"A note","mimeType":"text/plain","size":12},' +
          '{"type":"resource","resource":{"uri":"test://r","mimeType":"text/plain","text":"embedded"}},' +
          '{"type":"resource","resource":{"uri":"test://b","blob":"AA=="}}]}',
      });
    });

    it.each([
      ['data that is not base64', '{"type":"image","data":"not base64!","mimeType":"image/png"}', '[withheld: image image/png]'],
      ['a media type of another kind than the block', '{"type":"image","data":"AAAA","mimeType":"text/html"}', '[withheld: image text/html]'],
      ['a malformed media type', '{"type":"audio","data":"AAAA","mimeType":"audio/wav; codecs=1"}', '[withheld: audio audio/wav; codecs=1]'],
      ['a link whose URI does not parse', '{"type":"resource_link","uri":"no uri","name":"a"}', '[withheld: resource_link no uri]'],
      ['an embedded resource with text and a blob', '{"type":"resource","resource":{"uri":"test://r","text":"t","blob":"AA=="}}', '[withheld: resource test://r]'],
      ['an embedded resource whose blob is not base64', '{"type":"resource","resource":{"uri":"test://r","blob":"%%"}}', '[withheld: resource test://r]'],
      ['a block of a type the protocol does not have', '{"type":"video","data":"AAAA","mimeType":"video/mp4"}', '[withheld: video video/mp4]'],
    ])('still withholds %s', async (_, block, shown) => {
      expect(await judge(withholdUninspectable, `{"content":[${block}]}`, passing)).toEqual({ kind: 'pass', result: JSON.stringify({ content: [{ type: 'text', text: shown }] }) });
    });

    it(`passes at most ${MAX_PASSED_NON_TEXT} non-text blocks of one result and withholds the rest`, async () => {
      const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
      const verdict = await judge(withholdUninspectable, JSON.stringify({ content: Array.from({ length: MAX_PASSED_NON_TEXT + 2 }, () => image) }), passing);
      const blocks = verdict.kind === 'pass' ? (JSON.parse(verdict.result) as { content: Array<{ type: string }> }).content : [];
      expect(blocks.map((block) => block.type)).toEqual([...Array<string>(MAX_PASSED_NON_TEXT).fill('image'), 'text', 'text']);
    });
  });
});
