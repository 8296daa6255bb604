import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyBaseline, BaselineError, failureKeys, isExpectedFailure, parseBaseline, readBaseline, REASON_PLACEHOLDER, WHOLE_CASE, writeBaseline, type BaselineEntry } from '../../harness/run/baseline.js';
import { judgedCase } from './case-fixture.js';

const baselineOf = (entries: BaselineEntry[]) => parseBaseline(JSON.stringify({ format: 'mcp-gauntlet-baseline/1', entries }), 'baseline.json');
const known = new Map([
  ['a.leak', new Set(['call.answer_excludes', 'call.server_received'])],
  ['a.crash', new Set(['call.answer_excludes'])],
  ['c.works', new Set(['call.text_includes'])],
  ['a.skipped', new Set(['call.answer_excludes'])],
]);
const cases = [
  judgedCase('a.leak', 'fail', { control: 'c.works', checks: ['call.answer_excludes', 'call.server_received', 'call.answer_excludes'] }),
  judgedCase('a.crash', 'error', { control: 'c.works' }),
  judgedCase('c.works', 'pass', { kind: 'control' }),
  judgedCase('a.skipped', 'unsupported'),
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('expected-failure baselines', () => {
  it('keys a failure by each check it failed, and an error or a fail without findings by *', () => {
    expect(failureKeys(cases[0]!)).toEqual(['call.answer_excludes', 'call.server_received']);
    expect(failureKeys(cases[1]!)).toEqual([WHOLE_CASE]);
    expect(failureKeys(judgedCase('x', 'fail'))).toEqual([WHOLE_CASE]);
    expect(failureKeys(judgedCase('x', 'error', { checks: ['call.answer_excludes'] }))).toEqual(['call.answer_excludes', WHOLE_CASE]);
    expect(failureKeys(cases[2]!)).toEqual([]);
    expect(failureKeys(cases[3]!)).toEqual([]);
  });

  it('reads YAML as well as JSON, and refuses a file that is not a baseline, naming the problem', () => {
    const yaml = parseBaseline('format: mcp-gauntlet-baseline/1\nentries:\n  - scenario: a.leak\n    check: "*"\n    reason: known\n', 'b.yaml');
    expect(yaml.entries).toEqual([{ scenario: 'a.leak', check: '*', reason: 'known' }]);
    expect(() => parseBaseline('format: mcp-gauntlet-baseline/1\nentries:\n  - scenario: a.leak\n    check: "*"\n', 'b.yaml')).toThrow(/reason/);
    expect(() => parseBaseline('format: mcp-gauntlet-baseline/1\nentries:\n  - scenario: a.leak\n    check: "*"\n    reason: "  "\n', 'b.yaml')).toThrow(BaselineError);
    expect(() => parseBaseline('format: other\nentries: []\n', 'b.yaml')).toThrow(/format/);
    expect(() => parseBaseline('format: mcp-gauntlet-baseline/1\nentries:\n  - scenario: a.leak\n    check: "*"\n    reasn: known\n', 'b.yaml')).toThrow(
      /entries\[0\]: missing key "reason"; entries\[0\]: unknown key "reasn"; did you mean reason\?/,
    );
    expect(() => parseBaseline('entries: [', 'b.yaml')).toThrow(/not YAML or JSON/);
    expect(() => readBaseline('/nonexistent/baseline.yaml')).toThrow(/cannot read baseline/);
  });

  it('does not fail the run for listed failures, and does for unlisted ones', () => {
    const verdict = applyBaseline(baselineOf([{ scenario: 'a.leak', check: 'call.answer_excludes', reason: 'known' }]), cases, known);
    expect(verdict.expected).toEqual([{ scenario: 'a.leak', check: 'call.answer_excludes', reason: 'known' }]);
    expect(verdict.unexpected).toEqual([
      { scenario: 'a.leak', check: 'call.server_received' },
      { scenario: 'a.crash', check: WHOLE_CASE },
    ]);
    expect(isExpectedFailure(cases[0]!, verdict)).toBe(false);
    const full = applyBaseline(
      baselineOf([
        { scenario: 'a.leak', check: 'call.answer_excludes', reason: 'known' },
        { scenario: 'a.leak', check: 'call.server_received', reason: 'known' },
        { scenario: 'a.crash', check: WHOLE_CASE, reason: 'crashes on start' },
      ]),
      cases,
      known,
    );
    expect(full.unexpected).toEqual([]);
    expect(full.stale).toEqual([]);
    expect(cases.filter((c) => isExpectedFailure(c, full)).map((c) => c.id)).toEqual(['a.leak', 'a.crash']);
  });

  it('names an entry that no longer fails, matches nothing, or is listed twice', () => {
    const verdict = applyBaseline(
      baselineOf([
        { scenario: 'c.works', check: 'call.text_includes', reason: 'was broken' },
        { scenario: 'gone.scenario', check: WHOLE_CASE, reason: 'renamed' },
        { scenario: 'a.leak', check: 'call.misspelt', reason: 'typo' },
        { scenario: 'a.crash', check: WHOLE_CASE, reason: 'crashes' },
        { scenario: 'a.crash', check: WHOLE_CASE, reason: 'crashes, again' },
        { scenario: 'a.skipped', check: 'call.answer_excludes', reason: 'not judged here' },
      ]),
      cases,
      known,
    );
    expect(verdict.stale.map((s) => [s.scenario, s.check, s.why])).toEqual([
      ['c.works', 'call.text_includes', 'no-longer-fails'],
      ['gone.scenario', WHOLE_CASE, 'unknown-scenario'],
      ['a.leak', 'call.misspelt', 'unknown-check'],
      ['a.crash', WHOLE_CASE, 'duplicate'],
    ]);
    expect(verdict.not_judged).toBe(1);
  });

  it('writes the current failures with a placeholder the next run refuses, keeping reasons already given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-baseline-'));
    dirs.push(dir);
    const previous = baselineOf([{ scenario: 'a.crash', check: WHOLE_CASE, reason: 'crashes on start' }]);
    for (const file of [join(dir, 'b.yaml'), join(dir, 'b.json')]) {
      const placeholders = await writeBaseline(file, 'candidate', cases, previous);
      expect(placeholders.map((p) => p.check)).toEqual(['call.answer_excludes', 'call.server_received']);
      expect(() => readBaseline(file)).toThrow(/2 entries still have the placeholder reason.*a\.leak call\.answer_excludes, a\.leak call\.server_received/);
      const replaced = readFileSync(file, 'utf8').replaceAll(REASON_PLACEHOLDER, 'passthrough forwards it');
      const baseline = parseBaseline(replaced, file);
      expect(baseline.entries.find((e) => e.scenario === 'a.crash')?.reason).toBe('crashes on start');
      const verdict = applyBaseline(baseline, cases, known);
      expect([verdict.unexpected, verdict.stale]).toEqual([[], []]);
    }
  });
});
