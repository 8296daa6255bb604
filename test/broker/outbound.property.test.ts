// The outbound stage's promise, as properties: a valid message of any kind a server sends, with a
// canary, an injection, the operator's server token, an invisible character or a terminal control
// sequence planted in any string (a value or a key, at any depth, at any position), never reaches
// the agent as the server wrote it: it is withheld, or what passes no longer holds the planted
// form. And a benign message passes, its text unchanged (escaped where the channel escapes it), so
// the first property does not hold by withholding everything. Driven through the stage directly
// for every channel, and end to end through the Session for the answers and the listing it serves
// today.
// `npm test` runs a fixed seed; `npm run fuzz` a random one, printed, with GAUNTLET_FUZZ_RUNS cases.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { CHANNEL_PROFILES, CHANNELS, type Channel } from '../../src/inspect/channels.js';
import { configureStage, inspectOutbound } from '../../src/inspect/stage.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { escapeServerText } from '../../src/inspect/sanitize.js';
import { Session } from '../../src/session/session.js';
import { CONTEXT, initialized, json, registeredTools, rule } from './builders.js';
import { FakeRequester } from './fake-requester.js';
import {
  ANSI_HARM,
  CANARY_HARM,
  HIDDEN_HARM,
  INJECTION_HARM,
  MESSAGES,
  SERVER_TOKEN,
  TOKEN_HARM,
  plant,
  spot,
  strings,
  type Harm,
  type Json,
} from './outbound-property.js';
import { fuzzParameters } from '../fuzz.js';

const PARAMETERS = fuzzParameters('outbound', 40);
const SERVER_ENV = new Map([['NOTES_TOKEN', SERVER_TOKEN]]);
const STAGE = configureStage(ALL_GUARDS.outbound, { serverEnv: SERVER_ENV, limits: DEFAULT_LIMITS });

/**
 * The harms each channel must hold. Descriptors are decided at Load, before the session holds
 * the server's environment, and the operator saw them whole when pinning: the token is not
 * redacted from them (docs/result-path.md).
 */
function harmsFor(channel: Channel): fc.Arbitrary<Harm> {
  return channel === 'descriptor' ? fc.oneof(CANARY_HARM, INJECTION_HARM, HIDDEN_HARM, ANSI_HARM) : fc.oneof(CANARY_HARM, INJECTION_HARM, TOKEN_HARM, HIDDEN_HARM, ANSI_HARM);
}

/** What the agent would read of a message the stage let through; undefined when it withheld it. */
function throughStage(message: Json, channel: Channel): unknown {
  const outbound = inspectOutbound(readJson(JSON.stringify(message)), channel, STAGE);
  return outbound.ok ? JSON.parse(writeJson(outbound.message)) : undefined;
}

/** The benign message as the stage must pass it: unchanged, but for the members the channel escapes (when a guard escapes them). */
function expectedBenign(message: Json, channel: Channel): Json {
  const escaped = STAGE.steps.get(channel)?.has('escape') === true ? (CHANNEL_PROFILES[channel].escaped ?? []) : [];
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return message;
  return Object.fromEntries(Object.entries(message).map(([key, value]) => [key, escaped.includes(key) && typeof value === 'string' ? escapeServerText(value) : value]));
}

const reached = (received: unknown, harm: Harm): boolean => strings(received).some((text) => text.includes(harm.form));

describe('the outbound stage, on every channel', () => {
  it('covers every channel it names', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...CHANNELS].sort());
  });

  it.each(CHANNELS.map((channel) => [channel]))('%s: nothing planted reaches the agent as the server wrote it', (channel) => {
    fc.assert(
      fc.property(MESSAGES[channel], harmsFor(channel), spot, (message, harm, where) => {
        const planted = plant(message, harm.planted, where);
        expect(reached(planted, harm)).toBe(true);
        const received = throughStage(planted, channel);
        expect(received === undefined || !reached(received, harm), JSON.stringify(received)).toBe(true);
      }),
      PARAMETERS,
    );
  });

  it.each(CHANNELS.map((channel) => [channel]))('%s: a benign message passes, its text unchanged', (channel) => {
    fc.assert(
      fc.property(MESSAGES[channel], (message) => {
        expect(throughStage(message, channel)).toEqual(expectedBenign(message, channel));
      }),
      PARAMETERS,
    );
  });
});

/** A session with one read-only tool, listed as `listed` and answering every call with `answer`. */
function session(listed: { description: string; inputSchema: Json; annotations?: Json }, answer: ConstructorParameters<typeof FakeRequester>[0]) {
  const tool = {
    name: 'search_notes',
    description: listed.description,
    inputSchema: json(JSON.stringify(listed.inputSchema)),
    annotations: listed.annotations === undefined ? undefined : json(JSON.stringify(listed.annotations)),
    outputSchema: undefined,
  };
  const sent: string[] = [];
  const s = new Session({
    serverEnv: SERVER_ENV,
    tools: registeredTools([tool], { search_notes: rule('read_only') }),
    guards: ALL_GUARDS,
    context: CONTEXT,
    limits: DEFAULT_LIMITS,
    upstream: new FakeRequester(answer),
    audit: undefined,
    send: (line) => sent.push(line),
  });
  initialized(s, sent);
  /** Every line the agent got for the request, decoded. */
  const ask = async (request: string): Promise<unknown[]> => {
    sent.length = 0;
    s.handleLine(request);
    await s.settled();
    return sent.map((line) => JSON.parse(line));
  };
  return {
    list: () => ask('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
    call: () => ask('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"budget"}}}'),
  };
}

const PLAIN_TOOL = { description: 'Searches notes.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } };
const anyHarm = fc.oneof(CANARY_HARM, INJECTION_HARM, TOKEN_HARM, HIDDEN_HARM, ANSI_HARM);

describe('the outbound stage, end to end through the Session', () => {
  it('a result or a JSON-RPC error with a planted harm never reaches the agent as written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(MESSAGES.result.map((r) => ({ result: r })), MESSAGES.error.map((e) => ({ error: e }))), anyHarm, spot, async (answer, harm, where) => {
        const planted = plant(answer, harm.planted, where) as { result?: Json; error?: Json };
        const reply = planted.error === undefined ? JSON.stringify(planted.result) : { error: JSON.stringify(planted.error) };
        const received = await session(PLAIN_TOOL, () => reply).call();
        expect(received.length).toBe(1);
        expect(reached(received, harm), JSON.stringify(received)).toBe(false);
      }),
      PARAMETERS,
    );
  });

  it('a benign text result reaches the agent with its text as the server wrote it', async () => {
    await fc.assert(
      fc.asyncProperty(MESSAGES.result, async (result) => {
        const [answer] = (await session(PLAIN_TOOL, () => JSON.stringify({ ...result, isError: false })).call()) as { result: { content: { type: string; text?: string }[] } }[];
        const sentTexts = result.content.flatMap((block) => (block['type'] === 'text' ? [block['text']] : []));
        const gotTexts = answer!.result.content.filter((block) => block.type === 'text' && !block.text?.startsWith('[withheld:')).map((block) => block.text);
        expect(gotTexts).toEqual(sentTexts);
      }),
      PARAMETERS,
    );
  });

  it('a descriptor with a planted harm in its description, schema or annotations never reaches the agent as written', async () => {
    // Planted in an array of the three, so that the harm lands in them, never in the members' names.
    const parts = MESSAGES.descriptor.map(({ description, inputSchema, annotations }): Json => [description ?? 'Searches notes.', inputSchema, annotations ?? null]);
    await fc.assert(
      fc.asyncProperty(parts, fc.oneof(CANARY_HARM, INJECTION_HARM, HIDDEN_HARM, ANSI_HARM), spot, async (listed, harm, where) => {
        const [description, inputSchema, annotations] = plant(listed, harm.planted, where) as [string, Json, Json];
        const planted = { description, inputSchema, ...(annotations === null ? {} : { annotations }) };
        const received = await session(planted, () => '{"content":[]}').list();
        expect(reached(received, harm), JSON.stringify(received)).toBe(false);
      }),
      PARAMETERS,
    );
  });
});
