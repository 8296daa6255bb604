// The guards on a server's sampling requests, each called on its own: the exact verdict and
// reason for each refusal, each bound at the value it allows and one past it, and maxTokens judged
// by the exact value of the literal the agent will read (a literal a float64 rounds into range is
// still refused). server-initiated.test.ts shows the guards at work in the relay.

import { describe, expect, it } from 'vitest';
import { samplingAllowed, samplingBounds, samplingNoContext, samplingToolsDeclared } from '../../src/guards/sampling.js';
import type { ClientFacts, Initiated, InitiatedContext, ServerRequestGuard } from '../../src/guards/types.js';
import { readJson } from '../../src/json/reader.js';
import type { JsonObject } from '../../src/types.js';
import { initiatedContext } from './builders.js';

const SAMPLING = { allow: true, maxRequests: 3, maxTokens: 4096, maxMessageChars: 100, allowTools: false };

/** An agent that declared sampling (and nothing else, unless a test says so). */
const context = (over: { client?: Partial<ClientFacts>; sampling?: Partial<typeof SAMPLING>; count?: number } = {}): InitiatedContext =>
  initiatedContext({ policy: { sampling: { ...SAMPLING, ...over.sampling } }, client: { sampling: true, ...over.client }, count: over.count });

const request = (params: string): Initiated => ({ method: 'sampling/createMessage', params: readJson(params) as JsonObject });
const verdict = (guard: ServerRequestGuard, params: string, ctx = context()) => guard.check(request(params), ctx);
const passes = (guard: ServerRequestGuard, params: string, ctx = context()) =>
  expect(verdict(guard, params, ctx)).toEqual({ kind: 'pass', params: request(params).params });
const refuses = (guard: ServerRequestGuard, params: string, reason: string, ctx = context()) =>
  expect(verdict(guard, params, ctx)).toEqual({ kind: 'refuse', reason });

const asking = (maxTokens: string, text = 'Summarise.') => `{"messages":[{"role":"user","content":{"type":"text","text":${JSON.stringify(text)}}}],"maxTokens":${maxTokens}}`;
const TOKENS = 'a sampling request must ask for 1 to 4096 tokens';

describe('sampling-allowed', () => {
  it('passes only when the operator allows sampling for the server', () => {
    passes(samplingAllowed, asking('10'));
    refuses(samplingAllowed, asking('10'), 'the operator does not allow this server to request sampling', context({ sampling: { allow: false } }));
  });
});

describe('sampling-bounds', () => {
  it('allows as many requests a session as the operator set, and refuses the next', () => {
    passes(samplingBounds, asking('10'), context({ count: 3 }));
    refuses(samplingBounds, asking('10'), 'the server has already made the 3 sampling requests a session allows', context({ count: 4 }));
  });

  it.each(['1', '4096', '4096.0', '4.096e3', '1E0'])('passes maxTokens %s, an integer from 1 to the bound', (tokens) => passes(samplingBounds, asking(tokens)));

  it.each([
    ['0', 'zero'],
    ['-1', 'negative'],
    ['4097', 'one past the bound'],
    ['4096.0000000000001', 'past the bound by less than a float64 tells apart from 4096'],
    ['1.5', 'not an integer'],
    ['1.0000000000000001', 'not an integer, though a float64 reads it as 1'],
    ['1e400', 'beyond any float64'],
    ['"10"', 'a string'],
    ['null', 'null'],
  ])('refuses maxTokens %s (%s)', (tokens) => refuses(samplingBounds, asking(tokens), TOKENS));

  it('refuses a request without maxTokens', () => refuses(samplingBounds, '{"messages":[]}', TOKENS));

  it('counts the code points of every key and string in the messages and the system prompt together, up to the bound', () => {
    const bounded = context({ sampling: { maxMessageChars: 20 } });
    const carrying = (messages: string, prompt: string) => `{"messages":${messages},"systemPrompt":${JSON.stringify(prompt)},"maxTokens":5}`;
    passes(samplingBounds, carrying('["aaaaaaaaaa"]', 'b'.repeat(10)), bounded);
    refuses(samplingBounds, carrying('["aaaaaaaaaa"]', 'b'.repeat(11)), 'its messages hold 21 characters, over the bound of 20', bounded);
    // A key carries text as well as a value does: "role" and "user" are 8 of these 21.
    refuses(samplingBounds, carrying('[{"role":"user"}]', 'b'.repeat(13)), 'its messages hold 21 characters, over the bound of 20', bounded);
    // Code points, not UTF-16 units: 20 astral characters are 40 units.
    passes(samplingBounds, carrying('[]', '😀'.repeat(20)), bounded);
    refuses(samplingBounds, carrying('[]', '😀'.repeat(21)), 'its messages hold 21 characters, over the bound of 20', bounded);
  });
});

describe('sampling-tools-declared', () => {
  const withTools = '{"messages":[],"maxTokens":5,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}';
  const withChoice = '{"messages":[],"maxTokens":5,"toolChoice":{"mode":"auto"}}';
  const allowed = context({ sampling: { allowTools: true }, client: { samplingTools: true } });

  it('passes a request that offers no tools whatever the operator and agent allow', () => passes(samplingToolsDeclared, asking('5')));

  it.each([
    ['tools', withTools],
    ['a toolChoice', withChoice],
  ])('passes a request with %s only when the operator allows it and the agent declared sampling.tools', (_, params) => {
    passes(samplingToolsDeclared, params, allowed);
    refuses(samplingToolsDeclared, params, 'the agent did not declare sampling with tools', context({ sampling: { allowTools: true } }));
    refuses(samplingToolsDeclared, params, 'the operator does not allow this server tool-enabled sampling', context({ client: { samplingTools: true } }));
  });
});

describe('sampling-no-context', () => {
  const withContext = (value: string) => `{"messages":[],"maxTokens":5,"includeContext":${value}}`;
  const CONTEXT = 'a sampling request may not ask for context from the conversation (includeContext other than "none")';

  it('passes a request that asks for no context, or says nothing of it', () => {
    passes(samplingNoContext, asking('5'));
    passes(samplingNoContext, withContext('"none"'));
  });

  it.each(['"thisServer"', '"allServers"', '"None"', '"none "', 'null', '1', '["none"]'])('refuses includeContext %s: only "none" asks for none', (value) => {
    refuses(samplingNoContext, withContext(value), CONTEXT);
  });
});
