// mcp-remote's --ignore-tool patterns as the operator's allowlist (harness/candidates/brokers/tool-filter.ts).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HIDE_EVERY_TOOL, ignorePatterns, patternHides } from '../../harness/candidates/brokers/tool-filter.js';

/**
 * mcp-remote's own `patternToRegex`, read out of its installed bundle, so that the adapter's copy
 * of its matching is checked against the version that runs rather than against a memory of it.
 */
function mcpRemoteMatching(): (pattern: string, name: string) => boolean {
  const dist = dirname(createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js'));
  const chunks = ['proxy.js', ...readFileSync(join(dist, 'proxy.js'), 'utf8').match(/chunk-[A-Z0-9]+\.js/g)!];
  const source = chunks.map((file) => readFileSync(join(dist, file), 'utf8')).find((text) => text.includes('function patternToRegex('))!;
  const body = /function patternToRegex\(pattern\) \{[\s\S]*?\n\}/.exec(source)![0];
  const patternToRegex = new Function(`${body}; return patternToRegex;`)() as (pattern: string) => RegExp;
  return (pattern, name) => patternToRegex(pattern).test(name);
}

describe("mcp-remote's tool patterns", () => {
  const theirs = mcpRemoteMatching();
  const cases: Array<[string, string]> = [
    ['search_notes', 'search_notes'],
    ['search_notes', 'SEARCH_NOTES'],
    ['search_notes', 'search_notes2'],
    ['delete*', 'delete_note'],
    ['a.b', 'aXb'],
    ['a.b', 'a.b'],
    ['(x)+', '(x)+'],
    ['a*b', 'a*b'],
    ['a*b', 'aZZb'],
    ['名前', '名前'],
    ['', ''],
  ];

  it('are matched by the adapter exactly as by the installed mcp-remote', () => {
    for (const [pattern, name] of cases) expect(patternHides(pattern, name), `${pattern} ~ ${name}`).toBe(theirs(pattern, name));
  });

  it('hide every listed tool the operator did not allow, each by its own name, and nothing allowed', () => {
    expect(ignorePatterns(['search_notes', 'read_note', 'delete_note', 'delete_note'], ['search_notes', 'read_note'])).toEqual({ patterns: ['delete_note'], alsoHidden: [] });
    expect(ignorePatterns(['get.notes'], ['getXnotes'])).toEqual({ patterns: ['get.notes'], alsoHidden: [] });
  });

  it('fail closed where mcp-remote cannot tell an allowed name apart, and say which', () => {
    expect(ignorePatterns(['Search_Notes', 'search_notes'], ['search_notes'])).toEqual({ patterns: ['Search_Notes'], alsoHidden: ['search_notes'] });
    expect(ignorePatterns(['read*', 'read_note'], ['read_note'])).toEqual({ patterns: ['read*'], alsoHidden: ['read_note'] });
  });

  it('hide everything with the pattern used when nothing was learned', () => {
    expect(patternHides(HIDE_EVERY_TOOL, 'anything_at_all')).toBe(true);
  });
});
