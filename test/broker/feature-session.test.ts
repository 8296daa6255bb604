// The agent's feature requests during a session (src/features/session.ts), with the guards played
// by small stand-ins so the pipeline itself is what is shown: listings answered from what Load
// offered, the capabilities declared for it, a request without its subject refused before any
// guard or the server, each request guard's params passed to the next and to the server, the
// first refusal ending it, the server's error passed on, a failed request answered as the
// broker's error, and each answer guard's result passed to the next. features.test.ts shows the
// real feature guards in this pipeline.

import { describe, expect, it } from 'vitest';
import { FeatureSession } from '../../src/features/session.js';
import type { FeatureGuard } from '../../src/guards/types.js';
import { plain } from '../../src/json/tree.js';
import { writeJson } from '../../src/json/writer.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import type { JsonObject, JsonValue, Offered } from '../../src/types.js';
import { json } from './builders.js';
import { FakeRequester } from './fake-requester.js';

const offer = (over: Partial<Offered> = {}): Offered => ({ resources: [], templates: [], prompts: [], hidden: new Set(), ...over });
const RESOURCE = json('{"uri":"file:///notes/a","name":"a"}');
const TEMPLATE = json('{"uriTemplate":"file:///notes/{n}","name":"t"}');
const PROMPT = json('{"name":"summarise"}');

function session(guards: FeatureGuard[] = [], offered = offer(), answer: ConstructorParameters<typeof FakeRequester>[0] = () => '{"contents":[]}') {
  const upstream = new FakeRequester(answer);
  return { upstream, features: new FeatureSession({ offered, guards, limits: { ...DEFAULT_LIMITS, callTimeoutMs: 1234 }, upstream }) };
}
const text = (answer: { ok: boolean; result?: JsonValue; error?: JsonObject; passOn?: true }) =>
  answer.ok ? { ok: true, result: writeJson(answer.result!) } : { ok: false, error: writeJson(answer.error!), ...(answer.passOn ? { passOn: true } : {}) };

describe('FeatureSession', () => {
  it('answers each listing from what Load offered, in one page, without asking the server', async () => {
    const { upstream, features } = session([], offer({ resources: [RESOURCE], templates: [TEMPLATE], prompts: [PROMPT] }));
    expect(text(await features.answer('resources/list', undefined))).toEqual({ ok: true, result: '{"resources":[{"uri":"file:///notes/a","name":"a"}]}' });
    expect(text(await features.answer('resources/templates/list', plain({ cursor: 'x' })))).toEqual({
      ok: true,
      result: '{"resourceTemplates":[{"uriTemplate":"file:///notes/{n}","name":"t"}]}',
    });
    expect(text(await features.answer('prompts/list', undefined))).toEqual({ ok: true, result: '{"prompts":[{"name":"summarise"}]}' });
    expect(upstream.asked).toEqual([]);
  });

  it.each([
    [{}, []],
    [{ resources: [RESOURCE] }, ['resources']],
    [{ templates: [TEMPLATE] }, ['resources', 'completions']],
    [{ prompts: [PROMPT] }, ['prompts', 'completions']],
    [{ resources: [RESOURCE], templates: [TEMPLATE], prompts: [PROMPT] }, ['resources', 'prompts', 'completions']],
  ])('declares the capabilities for what it offers (%j)', (offered, declared) => {
    const capabilities = session([], offer(offered)).features.capabilities();
    expect(capabilities.map(([name, value]) => [name, writeJson(value)])).toEqual(declared.map((name) => [name, '{}']));
  });

  it.each([
    ['resources/read', 'uri'],
    ['resources/subscribe', 'uri'],
    ['resources/unsubscribe', 'uri'],
    ['prompts/get', 'name'],
  ])('refuses %s without a string %s before any guard or the server', async (method, subject) => {
    let judged = 0;
    const { upstream, features } = session([{ name: 'counting', request: (request) => (judged++, { ok: true, params: request.params }) }]);
    const refusal = `{"code":-32602,"message":"Invalid params: ${method} needs a string ${subject}"}`;
    expect(text(await features.answer(method, undefined))).toEqual({ ok: false, error: refusal });
    expect(text(await features.answer(method, plain({ [subject]: 7 })))).toEqual({ ok: false, error: refusal });
    expect(text(await features.answer(method, plain(['x'])))).toEqual({ ok: false, error: refusal });
    expect([judged, upstream.asked.length]).toEqual([0, 0]);
  });

  it.each([
    ['no reference', '{}'],
    ['a reference that is not an object', '{"ref":"ref/prompt"}'],
    ['a reference of no known type', '{"ref":{"type":"ref/tool","name":"x"}}'],
  ])('refuses a completion with %s as an unknown reference', async (_, params) => {
    const { upstream, features } = session();
    expect(text(await features.answer('completion/complete', json(params)))).toEqual({ ok: false, error: '{"code":-32602,"message":"Unknown reference"}' });
    expect(upstream.asked).toEqual([]);
  });

  it('passes each request guard\u2019s params to the next guard and to the server, within the call timeout', async () => {
    const seen: string[] = [];
    const tag = (name: string): FeatureGuard => ({
      name,
      request: (request) => {
        seen.push(`${name} ${writeJson(request.params)}`);
        return { ok: true, params: json(`{"uri":"file:///notes/a","by":"${name}"}`) };
      },
    });
    const { upstream, features } = session([tag('first'), { name: 'silent' }, tag('second')]);
    expect(text(await features.answer('resources/read', plain({ uri: 'file:///notes/a' })))).toEqual({ ok: true, result: '{"contents":[]}' });
    expect(seen).toEqual(['first {"uri":"file:///notes/a"}', 'second {"uri":"file:///notes/a","by":"first"}']);
    expect(upstream.asked).toEqual([{ method: 'resources/read', params: '{"uri":"file:///notes/a","by":"second"}', timeoutMs: 1234 }]);
  });

  it('ends at the first request guard that refuses: no later guard and no server', async () => {
    let later = 0;
    const { upstream, features } = session([
      { name: 'refuses', request: () => ({ ok: false, error: json('{"code":-32002,"message":"Resource not found"}') }) },
      { name: 'later', request: (request) => (later++, { ok: true, params: request.params }) },
    ]);
    expect(text(await features.answer('resources/read', plain({ uri: 'file:///x' })))).toEqual({ ok: false, error: '{"code":-32002,"message":"Resource not found"}' });
    expect([later, upstream.asked.length]).toEqual([0, 0]);
  });

  it("passes the server's error on to be reshaped, and answers a failed request as the broker's error", async () => {
    const refused = session([], offer(), () => ({ error: '{"code":-32002,"message":"gone"}' })).features;
    expect(text(await refused.answer('resources/read', plain({ uri: 'file:///x' })))).toEqual({ ok: false, error: '{"code":-32002,"message":"gone"}', passOn: true });
    const failed = session([], offer(), () => new Error('server "notes" exited with code 1')).features;
    expect(text(await failed.answer('resources/read', plain({ uri: 'file:///x' })))).toEqual({ ok: false, error: '{"code":-32000,"message":"server \\"notes\\" exited with code 1"}' });
  });

  it('passes each answer guard\u2019s result to the next, with the request the server was asked, and ends at the first that withholds', async () => {
    const subjects: string[] = [];
    const upper: FeatureGuard = {
      name: 'upper',
      request: () => ({ ok: true, params: json('{"uri":"file:///asked"}') }),
      answer: (result, subject) => {
        subjects.push(writeJson(subject.request.params));
        return { ok: true, result: plain({ was: writeJson(result) }) };
      },
    };
    const wrap: FeatureGuard = { name: 'wrap', answer: (result) => ({ ok: true, result: plain({ wrapped: writeJson(result) }) }) };
    const { features } = session([upper, wrap], offer(), () => '{"n":1}');
    expect(text(await features.answer('resources/read', plain({ uri: 'file:///x' })))).toEqual({ ok: true, result: '{"wrapped":"{\\"was\\":\\"{\\\\\\"n\\\\\\":1}\\"}"}' });
    expect(subjects).toEqual(['{"uri":"file:///asked"}']);
    const withholding: FeatureGuard = { name: 'withholds', answer: () => ({ ok: false, error: json('{"code":-32603,"message":"withheld"}') }) };
    const stopped = session([withholding, wrap], offer(), () => '{"n":1}').features;
    expect(text(await stopped.answer('resources/read', plain({ uri: 'file:///x' })))).toEqual({ ok: false, error: '{"code":-32603,"message":"withheld"}' });
  });

  it('forwards a method with no subject of its own as asked, params or none', async () => {
    const { upstream, features } = session([], offer(), () => '{}');
    await features.answer('completion/complete', json('{"ref":{"type":"ref/prompt","name":"summarise"},"argument":{"name":"a","value":"b"}}'));
    await features.answer('logging/setLevel', undefined);
    expect(upstream.asked.map((a) => [a.method, a.params])).toEqual([
      ['completion/complete', '{"ref":{"type":"ref/prompt","name":"summarise"},"argument":{"name":"a","value":"b"}}'],
      ['logging/setLevel', '{}'],
    ]);
  });
});
