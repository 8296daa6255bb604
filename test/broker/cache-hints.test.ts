// The guard cache-hints-private (src/guards/cache-hints.ts): every 2026-07-28 result the agent
// receives carries the broker's own caching hints, never the server's; disabled, the hints a
// result brings from the server are relayed as written.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ALL_GUARDS, selectGuards } from '../../src/guards/registry.js';
import { decideTools } from '../../src/load/load.js';
import { answerTo } from '../../src/session/answer.js';
import { Session } from '../../src/session/session.js';
import { readJson } from '../../src/json/reader.js';
import { RESULT_TYPE } from '../../src/wire/revision.js';
import { CONTEXT, config, pinOf, rule, tool } from './builders.js';
import { FakeRequester } from './fake-requester.js';

const listed = [tool('search_notes')];
const registered = decideTools(listed, { server: 'notes', tools: new Map(listed.map((t) => [t.name, pinOf(t)])) }, config({ search_notes: rule('read_only') }), ALL_GUARDS).registered;
const meta = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
const PUBLIC_DAY = '"ttlMs":86400000,"cacheScope":"public"';

/** What the agent receives for the listing and a call the server marked public for a day, under these guards. */
async function callAnswer(guards: ReturnType<typeof selectGuards>): Promise<string[]> {
  const sent: string[] = [];
  const upstream = new FakeRequester(() => `{"resultType":"complete",${PUBLIC_DAY},"content":[]}`);
  // The server's listing was marked public for a day too (what Load read of its first page).
  const toolListHints = [['ttlMs', readJson('86400000')], ['cacheScope', readJson('"public"')]] as const;
  const s = new Session({ tools: registered, guards, context: CONTEXT, limits: { ...DEFAULT_LIMITS, callTimeoutMs: 500 }, serverEnv: new Map(), upstream, audit: undefined, send: (line) => sent.push(line), toolListHints });
  s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${meta}}}`);
  s.handleLine(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{},${meta}}}`);
  await s.settled();
  return sent;
}

/** The line answerTo sends for `result` of `method`. */
function answered(method: string, result: string, relayHints: boolean, inputRequired = false): string {
  const sent: string[] = [];
  answerTo(readJson('1'), method, { client: {} as never, logLevel: undefined }, (line) => sent.push(line), relayHints).result(readJson(result), inputRequired ? RESULT_TYPE.inputRequired : RESULT_TYPE.complete);
  return sent[0]!;
}

describe('cache-hints-private', () => {
  it('gives a cacheable result the broker’s private 0 and any other none, whatever the server wrote', async () => {
    const [listing, call] = await callAnswer(ALL_GUARDS);
    expect(listing).toContain('"ttlMs":0,"cacheScope":"private"');
    expect(call).not.toContain('ttlMs');
    expect(call).not.toContain('cacheScope');
    expect(answered('resources/read', `{${PUBLIC_DAY},"contents":[]}`, false)).toBe('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","contents":[],"ttlMs":0,"cacheScope":"private"}}');
  });

  it('disabled, relays the hints a result brought from the server, on the listing and a call’s result too, and gives the broker’s where it brought none', async () => {
    const [listing, call] = await callAnswer(selectGuards(['cache-hints-private']));
    expect(listing).toContain(PUBLIC_DAY);
    expect(call).toContain(PUBLIC_DAY);
    expect(answered('resources/read', `{${PUBLIC_DAY},"contents":[]}`, true)).toBe(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","contents":[],${PUBLIC_DAY}}}`);
    expect(answered('resources/read', '{"contents":[]}', true)).toContain('"ttlMs":0,"cacheScope":"private"');
  });
});
