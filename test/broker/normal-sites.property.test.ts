// Each place the reference compares a server's name or URI with an operator's item or another
// server item does so in the normal forms of src/normal/ (docs/reference-broker.md, "Where names
// and URIs are compared"): a spelling of a hidden parameter, a denied one or a taken name is
// treated as that item, two spellings of one name are never both offered, and what differs stays
// apart. The spellings are generated (test/spellings.ts). `npm test` runs a fixed
// seed; `npm run fuzz` a random one (test/fuzz.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedUri, normaliseUri } from '../../src/features/uri.js';
import { hiddenParamsRefused } from '../../src/guards/call.js';
import { completionNoHiddenNames } from '../../src/guards/features.js';
import { serverNamesUnique } from '../../src/guards/fleet.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { DEFAULT_LIMITS, parseConfig } from '../../src/operator/config.js';
import type { RegisteredTool } from '../../src/types.js';
import { CONTEXT, json, registeredTool, registeredTools, rule, tool } from './builders.js';
import { fuzzParameters } from '../fuzz.js';
import { NAME_CHARS, nameSpelling, URI_SEGMENT_CHARS, uriSpelling } from '../spellings.js';

const PARAMETERS = fuzzParameters('normal-sites', 200);

const plainName = fc.string({ unit: fc.constantFrom(...NAME_CHARS), minLength: 1, maxLength: 16 });
const choices = fc.infiniteStream(fc.nat());

describe('name-unique', () => {
  it('registers one tool of two whose offered names are spellings of one name, and both of two different names', () => {
    fc.assert(
      fc.property(plainName, plainName, choices, (name, other, spell) => {
        const spelt = nameSpelling(name, spell);
        fc.pre(spelt !== name);
        const tools = [tool(name), tool(spelt)];
        expect(registeredTools(tools, { [name]: rule('read_only'), [spelt]: rule('read_only') }).map((t) => t.name)).toEqual([name]);
        fc.pre(other !== name);
        expect(registeredTools([tool(name), tool(other)], { [name]: rule('read_only'), [other]: rule('read_only') })).toHaveLength(2);
      }),
      PARAMETERS,
    );
  });
});

describe('server-names-unique', () => {
  const registered = (server: string, name: string) => ({ server, tool: name, name, shown: { inputSchema: { kind: 'object', entries: [] } } }) as unknown as RegisteredTool;

  it('refuses a name two servers claim under two spellings for both of them', () => {
    const tools = [registered('alpha', 'search'), registered('beta', 'Search'), registered('beta', 'write')];
    const verdict = serverNamesUnique.judge(tools);
    expect(verdict.registered).toEqual([tools[2]]);
    expect(verdict.refused.map((r) => r.reason)).toEqual([
      'its offered name "search" is claimed by the servers alpha and beta, so no call to it could be routed to one of them for certain',
      'its offered name "Search" is claimed by the servers alpha and beta, so no call to it could be routed to one of them for certain',
    ]);
  });
});

describe('hidden-params-refused', () => {
  it('refuses a call that sets a denied or fixed parameter under any spelling, and passes other names', () => {
    fc.assert(
      fc.property(plainName, plainName, choices, fc.boolean(), (hidden, other, spell, denied) => {
        // A schema naming `__proto__` is refused whatever is hidden (docs/reference-broker.md, "Validation").
        fc.pre(hidden !== other && hidden !== '__proto__' && other !== '__proto__');
        const schema = JSON.stringify({ type: 'object', properties: { [hidden]: {}, [other]: {} } });
        const hiding = denied ? { deny: [hidden] } : { fixed: [[hidden, readJson('1')]] as [string, ReturnType<typeof readJson>][] };
        const write = registeredTool('write_note', rule('local_change', hiding), schema);
        const verdict = (args: Record<string, unknown>) => hiddenParamsRefused.check({ name: write.name, tool: write, args: json(JSON.stringify(args)), chain: undefined }, CONTEXT).kind;
        expect(verdict({ [nameSpelling(hidden, spell)]: 'x' })).toBe('refuse');
        expect(verdict({ [other]: 'x' })).toBe('pass');
      }),
      PARAMETERS,
    );
  });

  it('takes a spelling of a hidden parameter out of the schema the agent sees', () => {
    const write = registeredTool('write_note', rule('local_change', { deny: ['path'] }), '{"type":"object","properties":{"path":{},"Path":{},"text":{}}}');
    expect(writeJson(write.shown.inputSchema)).toBe('{"type":"object","properties":{"text":{}}}');
  });
});

describe('the operator configuration', () => {
  const SERVER = '"server":{"id":"notes","command":"node"}';
  const problem = (rules: string) => {
    try {
      parseConfig(readJson(`{${SERVER},"rules":{"t":${rules}}}`));
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses two spellings of one parameter in deny and fixed, or twice in either', () => {
    expect(problem('{"effect":"read_only","deny":["path"],"fixed":{"Path":1}}')).toContain('names "path", which fixed also names, under this spelling or another');
    expect(problem('{"effect":"read_only","deny":["path","ＰＡＴＨ"]}')).toContain('names "ＰＡＴＨ" twice, under this spelling or another');
    expect(problem('{"effect":"read_only","fixed":{"path":1,"pa\\u200bth":2}}')).toContain('names "pa\u200bth" twice, under this spelling or another');
    expect(problem('{"effect":"read_only","deny":["path"],"fixed":{"paths":1}}')).toBe('accepted');
  });
});

const segment = fc.string({ unit: fc.constantFrom(...URI_SEGMENT_CHARS), minLength: 1, maxLength: 8 });

describe('resource-uri-allowed', () => {
  it('judges every spelling of a URI as the URI, and forwards its normal form', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), segment, choices, fc.boolean(), (folder, file, spell, inside) => {
        const allow = [`file:///${folder.join('/')}/`];
        const uri = inside ? `file:///${folder.join('/')}/${file}` : `file:///${file}-elsewhere/${folder.join('/')}`;
        const spelt = normaliseUri(uriSpelling(uri, spell));
        expect(spelt.ok && spelt.href).toBe(normaliseUri(uri).ok && new URL(uri).href);
        expect(spelt.ok && allowedUri(spelt.href, allow)).toBe(inside);
      }),
      PARAMETERS,
    );
  });
});

describe('completion-no-hidden-names', () => {
  it('drops a suggestion that names a hidden item under any spelling, and keeps one that does not', () => {
    fc.assert(
      fc.property(plainName, choices, (hidden, spell) => {
        fc.pre(hidden.length > 2);
        const values = [`open ${nameSpelling(hidden, spell)}`, 'budget'.includes(hidden) ? 'zzz' : 'budget'];
        const result = readJson(JSON.stringify({ completion: { values } }));
        const request = { method: 'completion/complete', params: json('{}') };
        const offered = { resources: [], templates: [], prompts: [], hidden: new Set([hidden]) };
        const verdict = completionNoHiddenNames.answer!(result, { request, offered, limits: DEFAULT_LIMITS, nonText: 'withhold' });
        expect(verdict.ok && JSON.parse(writeJson(verdict.result)).completion.values).toEqual([values[1]]);
      }),
      PARAMETERS,
    );
  });
});
