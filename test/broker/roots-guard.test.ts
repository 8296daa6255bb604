// The roots guard called on its own: what the server hears of the agent's roots/list answer for
// every shape that answer can take (not an object, no roots, roots not a list, entries that are
// not objects or have no string uri), and that only the roots the operator permits, by exact URI,
// pass, with their other members and the answer's other members kept. server-initiated.test.ts
// shows the guard in the relay.

import { describe, expect, it } from 'vitest';
import { rootsPermitted } from '../../src/guards/roots.js';
import type { InitiatedContext } from '../../src/guards/types.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { initiatedContext } from './builders.js';

const context = (roots: string[]): InitiatedContext => initiatedContext({ policy: { roots }, client: { roots: true } });
const PERMITTED = ['file:///work/project'];
/** What the server is told, as text, when the agent answered `answer`. */
const told = (answer: string, roots = PERMITTED) => writeJson(rootsPermitted.reshape(readJson(answer), context(roots)));

describe('roots-permitted', () => {
  it('passes only the permitted roots, by exact URI, keeping their other members and the answer\u2019s', () => {
    const answer = '{"roots":[{"uri":"file:///home/me","name":"home"},{"uri":"file:///work/project","name":"project"},{"uri":"file:///work/project/"}],"_meta":{"k":1}}';
    expect(told(answer)).toBe('{"roots":[{"uri":"file:///work/project","name":"project"}],"_meta":{"k":1}}');
  });

  it('tells the server of no root when the operator permits none', () => {
    expect(told('{"roots":[{"uri":"file:///work/project"}]}', [])).toBe('{"roots":[]}');
  });

  it.each([
    ['an answer that is not an object', '["file:///work/project"]', '{"roots":[]}'],
    ['an answer that is a string', '"file:///work/project"', '{"roots":[]}'],
    ['an answer without roots', '{"other":true}', '{"other":true,"roots":[]}'],
    ['roots that are not a list', '{"roots":"file:///work/project"}', '{"roots":[]}'],
    ['a root that is a bare string', '{"roots":["file:///work/project"]}', '{"roots":[]}'],
    ['a root without a uri', '{"roots":[{"name":"file:///work/project"}]}', '{"roots":[]}'],
    ['a root whose uri is not a string', '{"roots":[{"uri":["file:///work/project"]}]}', '{"roots":[]}'],
  ])('tells the server of no root for %s', (_, answer, expected) => {
    expect(told(answer)).toBe(expected);
  });
});
