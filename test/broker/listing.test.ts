// The handshake and the paged listing, against an in-memory server.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ListingRefused, UpstreamError } from '../../src/errors.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { writeJson } from '../../src/json/writer.js';
import { SAFETY_STOP_PAGES, initializeAndList } from '../../src/load/listing.js';
import { FakeRequester } from './fake-requester.js';

const INIT = '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}';
const t = (name: string, extra = '') => `{"name":"${name}","inputSchema":{"type":"object"}${extra}}`;

/** A server whose pages are given as raw `tools` texts, each naming the next page's cursor. */
function server(pages: string[], { init = INIT, cursor = (i: number) => (i < pages.length - 1 ? `p${i + 1}` : undefined) } = {}) {
  return new FakeRequester((method, params) => {
    if (method === 'initialize') return init;
    const i = params === undefined || !params.includes('cursor') ? 0 : Number(/"p(\d+)"/.exec(params)?.[1] ?? 0);
    const next = cursor(i);
    return `{"tools":${pages[i] ?? '[]'}${next === undefined ? '' : `,"nextCursor":"${next}"`}}`;
  });
}

const list = (requester: FakeRequester, limits = DEFAULT_LIMITS, guards = ALL_GUARDS.listing) =>
  initializeAndList(requester, 'notes', limits, guards).then(({ tools }) => tools);

describe('initializeAndList', () => {
  it('initializes, then reads every page keeping raw trees', async () => {
    const requester = server([`[${t('a', ',"description":"A","annotations":{"readOnlyHint":true}')}]`, `[${t('b', ',"inputSchema2":1')}]`]);
    const tools = await list(requester);
    expect(tools.map((tool) => tool.name)).toEqual(['a', 'b']);
    expect(tools[0]?.description).toBe('A');
    expect(tools[1]?.description).toBeUndefined();
    expect(writeJson(tools[0]?.annotations ?? { kind: 'null' })).toBe('{"readOnlyHint":true}');
    expect(requester.asked.map((a) => [a.method, a.params])).toEqual([
      ['initialize', '{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"gauntlet-reference-broker","version":"0.1.0"}}'],
      ['tools/list', '{}'],
      ['tools/list', '{"cursor":"p1"}'],
    ]);
    expect(requester.notified).toEqual(['notifications/initialized']);
    // One deadline bounds the whole step.
    expect(requester.asked.every((a) => a.timeoutMs <= DEFAULT_LIMITS.connectTimeoutMs)).toBe(true);
  });

  it('declares to the server the client capabilities it is given, and learns whether the server declared logging', async () => {
    const declared = { sampling: true, samplingTools: true, elicitationForm: true, elicitationUrl: false, roots: false };
    const requester = server(['[]'], { init: '{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}}}' });
    const handshake = await initializeAndList(requester, 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing, declared);
    expect(JSON.parse(requester.asked[0]!.params!).capabilities).toEqual({ sampling: { tools: {} }, elicitation: { form: {} } });
    expect(handshake.logging).toBe(true);
    // Declared without an object, or not at all, logging is not declared.
    for (const capabilities of ['{"tools":{}}', '{"logging":true}']) {
      const without = await initializeAndList(server(['[]'], { init: `{"protocolVersion":"2025-11-25","capabilities":${capabilities}}` }), 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing);
      expect(without.logging).toBe(false);
    }
  });

  it('keeps the instructions the initialize answer gives, and none that is not a string', async () => {
    const given = async (instructions: string) =>
      (await initializeAndList(server(['[]'], { init: `{"protocolVersion":"2025-11-25","instructions":${instructions}}` }), 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing)).instructions;
    expect(await given('"Search first."')).toBe('Search first.');
    expect(await given('["Search first."]')).toBeUndefined();
    expect((await initializeAndList(server(['[]']), 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing)).instructions).toBeUndefined();
  });

  it('refuses a protocol version it does not speak, or none', async () => {
    const unspoken = 'server "notes" answered initialize without a protocol version the broker speaks';
    await expect(list(server(['[]'], { init: '{"protocolVersion":"2024-01-01"}' }))).rejects.toThrow(UpstreamError);
    for (const init of ['{"protocolVersion":"2024-01-01"}', '{}', '["2025-11-25"]']) await expect(list(server(['[]'], { init }))).rejects.toThrow(unspoken);
    const refused = new FakeRequester(() => ({ error: '{"code":-1,"message":"not now"}' }));
    await expect(list(refused)).rejects.toThrow('server "notes" answered initialize with an error: not now');
  });

  it('keeps the output schema and annotations a tool gives, as given', async () => {
    const [tool] = await list(server([`[${t('a', ',"outputSchema":{"type":"object"},"annotations":{"title":"A"}')}]`]));
    expect(writeJson(tool!.outputSchema ?? { kind: 'null' })).toBe('{"type":"object"}');
    expect(writeJson(tool!.annotations ?? { kind: 'null' })).toBe('{"title":"A"}');
    const [bare] = await list(server([`[${t('b')}]`]));
    expect(bare!.outputSchema).toBeUndefined();
    expect(bare!.annotations).toBeUndefined();
  });

  it("keeps a tool's title and of its execution only taskSupport; refuses a page where either is malformed", async () => {
    const [tool] = await list(server([`[${t('a', ',"title":"Search","execution":{"taskSupport":"optional","x":1}')}]`]));
    expect(tool!.title).toBe('Search');
    expect(writeJson(tool!.execution ?? { kind: 'null' })).toBe('{"taskSupport":"optional"}');
    const [unknownOnly] = await list(server([`[${t('b', ',"execution":{"x":1}')}]`]));
    expect(writeJson(unknownOnly!.execution ?? { kind: 'null' })).toBe('{}');
    for (const extra of [',"title":1', ',"execution":[]', ',"execution":{"taskSupport":"always"}']) {
      await expect(list(server([`[${t('c', extra)}]`]))).rejects.toThrow(UpstreamError);
    }
  });

  it('stops at max_pages without asking for more', async () => {
    const requester = server([], { cursor: (i) => `p${i + 1}` });
    await expect(list(requester, { ...DEFAULT_LIMITS, maxPages: 5 })).rejects.toThrow(ListingRefused);
    expect(requester.asked.filter((a) => a.method === 'tools/list')).toHaveLength(5);
  });

  it('refuses a repeated cursor, too many tools and a duplicate name', async () => {
    await expect(list(server(['[]'], { cursor: () => 'p0' }))).rejects.toThrow('guard listing-bounds refused the listing: page 2 names a cursor seen before');
    const many = `[${Array.from({ length: 4 }, (_, i) => t(`f${i}`)).join(',')}]`;
    await expect(list(server([many]), { ...DEFAULT_LIMITS, maxTools: 3 })).rejects.toThrow('more than max_tools (3)');
    await expect(list(server([many]), { ...DEFAULT_LIMITS, maxTools: 4 })).resolves.toHaveLength(4);
    await expect(list(server([`[${t('a')},${t('a')}]`]))).rejects.toThrow('guard listing-unique refused the listing');
    await expect(list(server([`[${t('a')}]`, `[${t('a')}]`]))).rejects.toThrow('names "a" twice');
  });

  it('without the listing guards, a later duplicate replaces an earlier one and a safety stop remains', async () => {
    const tools = await list(server([`[${t('a', ',"description":"1"')},${t('a', ',"description":"2"')}]`]), DEFAULT_LIMITS, []);
    expect(tools.map((tool) => tool.description)).toEqual(['2']);
    const endless = server([], { cursor: () => 'same' });
    await expect(list(endless, DEFAULT_LIMITS, [])).rejects.toThrow(`did not end within ${SAFETY_STOP_PAGES} pages`);
    expect(endless.asked.filter((a) => a.method === 'tools/list')).toHaveLength(SAFETY_STOP_PAGES);
  });

  it.each([
    ['{"tools":{}}', 'tools is not an array'],
    ['{"tools":[],"nextCursor":null}', 'nextCursor is not a string'],
    ['{"tools":[{"inputSchema":{}}]}', 'tool 0: name is not a non-empty string'],
    ['{"tools":[{"name":"a"}]}', 'inputSchema is not an object'],
    ['{"tools":[{"name":"a","inputSchema":{},"description":1}]}', 'description is not a string'],
    ['{"tools":[{"name":"a","inputSchema":{},"annotations":null}]}', 'annotations is not an object'],
    ['[]', 'the result is not an object'],
    ['{"tools":[1]}', 'tool 0: not an object'],
    ['{"tools":[{"name":"","inputSchema":{}}]}', 'tool 0: name is not a non-empty string'],
    ['{"tools":[{"name":"a","inputSchema":{},"outputSchema":[]}]}', 'tool 0: outputSchema is not an object'],
  ])('refuses the malformed page %s', async (page, message) => {
    const requester = new FakeRequester((method) => (method === 'initialize' ? INIT : page));
    await expect(list(requester)).rejects.toThrow(message);
  });

  it('passes on an error answer', async () => {
    const requester = new FakeRequester((method) => (method === 'initialize' ? INIT : { error: '{"code":-1,"message":"nope"}' }));
    await expect(list(requester)).rejects.toThrow('server "notes" answered tools/list page 1 with an error: nope');
  });
});
