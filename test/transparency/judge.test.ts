import { describe, expect, it } from 'vitest';
import type { Answer } from '../../harness/agent/client.js';
import { judgeOperation } from '../../harness/transparency/judge.js';
import type { Observed } from '../../harness/transparency/observe.js';
import { scoreOf } from '../../harness/transparency/score.js';

/** An observation of a result, as the agent's raw line would carry it (the id differs by route). */
function result(id: string, value: Record<string, unknown>, extra: Partial<Observed> = {}, lineId = 1): Observed {
  const answer: Answer = { kind: 'result', result: value, raw: JSON.stringify({ jsonrpc: '2.0', id: lineId, result: value }) };
  return { id, answer, requests: [], progress: [], ...extra };
}

const text = (value: string) => ({ type: 'text', text: value });
const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('judgeOperation', () => {
  it('preserves an answer that differs only in its id, its key order, a timestamp and the broker receipt', () => {
    const direct = result('tools/call:echo', { content: [text('Echo: hi at 4:05:12 AM')], isError: false }, {}, 7);
    const through = result('tools/call:echo', { isError: false, content: [text('Echo: hi at 4:06:40 AM')], _meta: { 'gauntlet/receipt': { tool: 'echo' } } }, {}, 99);
    expect(judgeOperation('tools/call', direct, through)).toMatchObject({ verdict: 'preserved' });
  });

  it('keeps a _meta member the server sent, and breaks on its change', () => {
    const direct = result('tools/call:echo', { content: [text('hi')], _meta: { trace: 'a' } });
    const through = result('tools/call:echo', { content: [text('hi')], _meta: { trace: 'b' } });
    expect(judgeOperation('tools/call', direct, through)).toMatchObject({ verdict: 'broken', detail: expect.stringContaining('/_meta/trace') });
  });

  it("sets aside the _meta a broker adds to a progress notification, as to an answer, and breaks on progress changed", () => {
    const progress = (extra: Record<string, unknown> = {}) => ({ progressToken: 't', progress: 1, total: 2, ...extra });
    const direct = result('tools/call:slow', { content: [text('done')] }, { progress: [progress()] });
    expect(judgeOperation('tools/call', direct, result('tools/call:slow', { content: [text('done')] }, { progress: [progress({ _meta: { source: 'broker' } })] })).verdict).toBe('preserved');
    expect(judgeOperation('tools/call', direct, result('tools/call:slow', { content: [text('done')] }, { progress: [progress({ progress: 2 })] })).verdict).toBe('broken');
  });

  it('compares a text blob by its decoded text, and breaks on a changed byte', () => {
    const blob = (value: string) => ({ contents: [{ uri: 'demo://b/1', blob: Buffer.from(value).toString('base64') }] });
    expect(judgeOperation('resources/read', result('r', blob('made at 4:05:12 AM')), result('r', blob('made at 5:00:00 PM'))).verdict).toBe('preserved');
    expect(judgeOperation('resources/read', result('r', blob('made by Ada')), result('r', blob('made by Bob'))).verdict).toBe('broken');
  });

  it('is changed under WTH-1 when only non-text content is withheld behind a placeholder', () => {
    const direct = result('tools/call:img', { content: [text('before'), image, text('after')] });
    const through = result('tools/call:img', { content: [text('before'), text('[image withheld]'), text('after')] });
    expect(judgeOperation('tools/call', direct, through)).toMatchObject({ verdict: 'changed', requirement: 'WTH-1' });
  });

  it('breaks when the text around a withheld image changed too, or a text block is withheld', () => {
    const direct = result('tools/call:img', { content: [text('before'), image] });
    expect(judgeOperation('tools/call', direct, result('tools/call:img', { content: [text('BEFORE'), text('[image withheld]')] })).verdict).toBe('broken');
    expect(judgeOperation('tools/call', direct, result('tools/call:img', { content: [text('[withheld]'), text('[image withheld]')] })).verdict).toBe('broken');
  });

  it("is changed under RSC-4 when a resource's blob is replaced by a placeholder for the same URI", () => {
    const direct = result('resources/read:x', { contents: [{ uri: 'demo://x', mimeType: 'application/gzip', blob: 'H4sIAAAA' }] });
    const through = result('resources/read:x', { contents: [{ uri: 'demo://x', mimeType: 'application/gzip', text: '[blob withheld]' }] });
    expect(judgeOperation('resources/read', direct, through)).toMatchObject({ verdict: 'changed', requirement: 'RSC-4' });
  });

  it('is changed under CLS-3 when only the annotations of a tool listing differ, broken when a tool is missing', () => {
    const tool = (annotations: Record<string, boolean>) => ({ name: 'echo', inputSchema: { type: 'object' }, annotations });
    const direct = result('tools/list', { tools: [tool({ readOnlyHint: false, idempotentHint: true, openWorldHint: false }), { name: 'sum', inputSchema: { type: 'object' } }] });
    const replaced = result('tools/list', { tools: [tool({ readOnlyHint: false, destructiveHint: false, openWorldHint: false }), { name: 'sum', inputSchema: { type: 'object' } }] });
    expect(judgeOperation('tools/list', direct, replaced)).toMatchObject({ verdict: 'changed', requirement: 'CLS-3' });
    expect(judgeOperation('tools/list', direct, result('tools/list', { tools: [tool({})] })).verdict).toBe('broken');
  });

  it('gives a listing\'s order no weight: the same items in another order are preserved', () => {
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: name === 'b' } });
    const direct = result('tools/list', { tools: [tool('a'), tool('b'), tool('c')] });
    expect(judgeOperation('tools/list', direct, result('tools/list', { tools: [tool('c'), tool('a'), tool('b')] })).verdict).toBe('preserved');
    expect(judgeOperation('resources/list', result('resources/list', { resources: [{ uri: 'x:1' }, { uri: 'x:2' }] }), result('resources/list', { resources: [{ uri: 'x:2' }, { uri: 'x:1' }] })).verdict).toBe('preserved');
  });

  it('names a listing\'s items by their keys in its detail, so a tool missing does not read as the next one changed', () => {
    const tool = (name: string, readOnlyHint: boolean) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint } });
    const direct = result('tools/list', { tools: [tool('a', false), tool('b', true), tool('c', false)] });
    expect(judgeOperation('tools/list', direct, result('tools/list', { tools: [tool('a', false), tool('c', false)] })).detail).toBe('at /answer/tools: direct lists "b", through the candidate it is absent');
    expect(judgeOperation('tools/list', direct, result('tools/list', { tools: [tool('a', false), tool('b', true), tool('c', false), tool('d', true)] })).detail).toBe('at /answer/tools: through the candidate "d" is listed, direct it is not');
    expect(judgeOperation('tools/list', direct, result('tools/list', { tools: [tool('a', false), tool('b', true), { ...tool('c', false), description: 'new' }] })).detail).toBe('at /answer/tools/"c"/description: direct absent, through the candidate "new"');
  });

  // The specification gives each hint a default and makes destructiveHint and idempotentHint
  // meaningful only when readOnlyHint is false: hints spelled differently but read alike are kept.
  it('compares the hints of a tool listing as the agent reads them', () => {
    const listing = (...annotations: Array<Record<string, boolean> | undefined>) =>
      result('tools/list', { tools: annotations.map((given, index) => ({ name: `t${index}`, inputSchema: { type: 'object' }, ...(given === undefined ? {} : { annotations: given }) })) });
    const direct = listing({ readOnlyHint: true, openWorldHint: false }, undefined, { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    const sameMeaning = listing({ readOnlyHint: true, destructiveHint: false, openWorldHint: false }, { readOnlyHint: false, destructiveHint: true }, { readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(judgeOperation('tools/list', direct, sameMeaning).verdict).toBe('preserved');
    const openWorld = listing({ readOnlyHint: true }, undefined, { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(judgeOperation('tools/list', direct, openWorld)).toMatchObject({ verdict: 'changed', requirement: 'CLS-3' });
  });

  it('is changed under INS-1 for text put in NFKC form, broken for any other rewrite', () => {
    const direct = result('resources/read:doc', { contents: [{ uri: 'demo://doc', text: 'high\u2011level' }] });
    expect(judgeOperation('resources/read', direct, result('resources/read:doc', { contents: [{ uri: 'demo://doc', text: 'high\u2010level' }] }))).toMatchObject({
      verdict: 'changed',
      requirement: 'INS-1',
    });
    expect(judgeOperation('resources/read', direct, result('resources/read:doc', { contents: [{ uri: 'demo://doc', text: 'high level' }] })).verdict).toBe('broken');
  });

  it('is changed under DSC-2 for a description past the cap cut with its start kept', () => {
    const long = 'x'.repeat(1_500);
    const direct = result('prompts/list', { prompts: [{ name: 'p', description: long }] });
    const through = result('prompts/list', { prompts: [{ name: 'p', description: `${long.slice(0, 990)}…[truncated]` }] });
    expect(judgeOperation('prompts/list', direct, through)).toMatchObject({ verdict: 'changed', requirement: 'DSC-2' });
  });

  it('breaks on a missing server request or progress, even when the answer is the same', () => {
    const asked = { requests: [{ method: 'sampling/createMessage', params: { maxTokens: 50 } }], progress: [{ progress: 1, progressToken: 't' }] };
    const direct = result('tools/call:sample', { content: [text('ok')] }, asked);
    expect(judgeOperation('tools/call', direct, result('tools/call:sample', { content: [text('ok')] }, { ...asked, requests: [] })).verdict).toBe('broken');
    expect(judgeOperation('tools/call', direct, result('tools/call:sample', { content: [text('ok')] }, { ...asked, progress: [] })).verdict).toBe('broken');
  });

  it('breaks on an error, a timeout, a closed channel or a session that ended, through the candidate', () => {
    const direct = result('ping', {});
    const error: Answer = { kind: 'error', error: { code: -32601, message: 'Method not found' }, raw: '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}' };
    for (const answer of [error, { kind: 'timeout' } as const, { kind: 'closed' } as const]) {
      expect(judgeOperation('ping', direct, { id: 'ping', answer, requests: [], progress: [] }).verdict).toBe('broken');
    }
    expect(judgeOperation('ping', direct, undefined)).toMatchObject({ verdict: 'broken', detail: expect.stringContaining('ended before') });
  });

  it('is not-applicable for what fails direct, whatever the candidate does', () => {
    const failed: Observed = { id: 'prompts/list', answer: { kind: 'error', error: { code: -32601, message: 'Method not found' }, raw: '' }, requests: [], progress: [] };
    expect(judgeOperation('prompts/list', failed, result('prompts/list', { prompts: [] })).verdict).toBe('not-applicable');
  });
});

describe('scoreOf', () => {
  it('counts preserved of what works direct, leaving out not-applicable and unsupported', () => {
    const of = (verdict: 'preserved' | 'changed' | 'broken' | 'not-applicable' | 'unsupported') => ({ suite: 's', id: verdict, title: verdict, verdict, detail: '' });
    const score = scoreOf([of('preserved'), of('preserved'), of('preserved'), of('changed'), of('broken'), of('not-applicable'), of('unsupported')]);
    expect(score).toEqual({ preserved: 3, changed: 1, broken: 1, not_applicable: 1, unsupported: 1, applicable: 5, transparency: 0.6 });
    expect(scoreOf([of('not-applicable')]).transparency).toBeNull();
  });
});
