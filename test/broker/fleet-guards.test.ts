// The fleet guards called on their own, on registered tools of several servers: which tools
// server-names-unique refuses and the exact refusal, which names foreign-mentions removes from a
// server's descriptions and results (every whole-word occurrence of another server's offered name,
// never a name that is also the server's own, never part of a longer word), and what passes
// untouched. fleet.test.ts shows them after each server's own Load.

import { describe, expect, it } from 'vitest';
import { FOREIGN_MARKER, foreignMentions, foreignMentionsResult, serverNamesUnique } from '../../src/guards/fleet.js';
import type { ResultSubject } from '../../src/guards/types.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { RegisteredTool } from '../../src/types.js';

/** A registered tool with what the fleet guards read (null: no description); the rest, which they never read, left out. */
const registered = (server: string | undefined, tool: string, name = tool, description: string | null = `Runs ${tool}.`, foreign?: string[]) =>
  ({
    ...(server === undefined ? {} : { server }),
    tool,
    name,
    shown: { description: description ?? undefined, inputSchema: { kind: 'object', entries: [] }, annotations: undefined },
    ...(foreign === undefined ? {} : { foreign }),
  }) as unknown as RegisteredTool;

describe('server-names-unique', () => {
  it('refuses an offered name two servers claim, for each of them, and keeps the rest', () => {
    const tools = [registered('alpha', 'search'), registered('alpha', 'write'), registered('beta', 'search'), registered('gamma', 'read')];
    const reason = 'its offered name "search" is claimed by the servers alpha and beta, so no call to it could be routed to one of them for certain';
    expect(serverNamesUnique.judge(tools)).toStrictEqual({
      registered: [tools[1], tools[3]],
      refused: [
        { server: 'alpha', tool: 'search', guard: 'server-names-unique', reason },
        { server: 'beta', tool: 'search', guard: 'server-names-unique', reason },
      ],
    });
  });

  it('leaves a name one server lists twice to name-unique, and names no server for a tool that has none', () => {
    const single = [registered(undefined, 'a', 'x'), registered(undefined, 'b', 'x')];
    expect(serverNamesUnique.judge(single)).toStrictEqual({ registered: single, refused: [] });
    const mixed = [registered(undefined, 'a', 'x'), registered('beta', 'b', 'x')];
    expect(serverNamesUnique.judge(mixed).refused[0]).toStrictEqual({
      tool: 'a',
      guard: 'server-names-unique',
      reason: 'its offered name "x" is claimed by the servers  and beta, so no call to it could be routed to one of them for certain',
    });
  });
});

describe('foreign-mentions', () => {
  const descriptions = (tools: RegisteredTool[]) => foreignMentions.judge(tools).registered.map((tool) => [tool.name, tool.shown.description, tool.foreign]);

  it('removes every whole-word mention of another server\u2019s offered names, and keeps them on the tool', () => {
    const tools = [
      registered('alpha', 'search', 'alpha_search', 'Call beta_send, then beta_send again; not beta_sender or xbeta_send.'),
      registered('beta', 'send', 'beta_send', 'Sends; see alpha_search.'),
      registered('beta', 'sender', 'beta_sender', null),
    ];
    expect(descriptions(tools)).toEqual([
      ['alpha_search', `Call ${FOREIGN_MARKER}, then ${FOREIGN_MARKER} again; not ${FOREIGN_MARKER} or xbeta_send.`, ['beta_send', 'beta_sender']],
      ['beta_send', `Sends; see ${FOREIGN_MARKER}.`, ['alpha_search']],
      ['beta_sender', undefined, ['alpha_search']],
    ]);
    expect(foreignMentions.judge(tools).refused).toStrictEqual([]);
  });

  it('removes them from a title as from a description', () => {
    const titled = { ...registered('alpha', 'search', 'alpha_search'), shown: { ...registered('alpha', 'search').shown, title: 'Search, then beta_send' } } as RegisteredTool;
    const [judged] = foreignMentions.judge([titled, registered('beta', 'send', 'beta_send')]).registered;
    expect(judged!.shown.title).toBe(`Search, then ${FOREIGN_MARKER}`);
  });

  it('leaves a server its own names: its tools\u2019 names and offered names, even when another server offers one', () => {
    const tools = [registered('alpha', 'search', 'alpha_search', 'Use search or alpha_search; not send.'), registered('beta', 'search', 'search', 'Use alpha_search.'), registered('beta', 'send')];
    expect(descriptions(tools)).toEqual([
      ['alpha_search', `Use search or alpha_search; not ${FOREIGN_MARKER}.`, ['send']],
      ['search', `Use ${FOREIGN_MARKER}.`, ['alpha_search']],
      ['send', 'Runs send.', ['alpha_search']],
    ]);
  });

  it('leaves a lone server\u2019s tools as they are', () => {
    const tools = [registered('alpha', 'search'), registered('alpha', 'write')];
    expect(foreignMentions.judge(tools).registered).toStrictEqual(tools);
  });
});

describe('foreign-mentions on results', () => {
  const subject = (tool: RegisteredTool | undefined) => ({ tool }) as ResultSubject;
  const result = readJson('{"content":[{"type":"text","text":"Now call beta_send with beta_send_all."}]}');

  it('removes the tool\u2019s foreign names from every string of its result', async () => {
    const verdict = await foreignMentionsResult.check(result, subject(registered('alpha', 'search', 'search', null, ['beta_send'])));
    expect(verdict.kind).toBe('pass');
    if (verdict.kind === 'pass') expect(writeJson(verdict.result)).toBe(`{"content":[{"type":"text","text":"Now call ${FOREIGN_MARKER} with beta_send_all."}]}`);
  });

  it.each([
    ['a tool with no foreign names', registered('alpha', 'search')],
    ['a call to no registered tool', undefined],
  ])('passes the result of %s untouched', async (_, tool) => {
    expect(await foreignMentionsResult.check(result, subject(tool))).toStrictEqual({ kind: 'pass', result });
    const verdict = await foreignMentionsResult.check(result, subject(tool));
    if (verdict.kind === 'pass') expect(verdict.result).toBe(result);
  });
});
