// The harness judges an item a broker offers as one a scenario says it must withhold under any
// spelling of it (harness/observe/spellings.ts): `list.excludes`, `request.excludes` and
// `list.hidden` (a parameter) fail when
// the hidden tool, prompt or resource is offered in another case, in compatibility characters,
// with invisible characters, or (a URI) with its unreserved characters escaped; and a different
// item that merely shares letters still passes them. `npm test` runs a fixed seed; `npm run fuzz`
// a random one (test/fuzz.ts). The judges of what must not reach the agent (`answer_excludes`,
// `listing_excludes`, `description_excludes`, `instructions_excludes`) find a fragment respelt in
// case or compatibility characters, inside any text, and no other phrase.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionSpec } from '../../harness/candidates/types.js';
import { judgeExcludedNames } from '../../harness/expect/list/offered.js';
import type { ListFacts } from '../../harness/expect/types.js';
import { judge } from '../../harness/run/judge.js';
import type { StepRecord } from '../../harness/run/steps.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';
import { carrierOf, itemKey } from '../../harness/observe/spellings.js';
import { fuzzParameters } from '../fuzz.js';
import { NAME_CHARS, nameSpelling, textSpelling, URI_SEGMENT_CHARS, uriSpelling } from '../spellings.js';

const PARAMETERS = fuzzParameters('harness-spellings', 300);

/** What judgeExcludedNames reports for `excluded` when the broker offers `offered`. */
function failures(excluded: string, offered: readonly string[]): string[] {
  const found: string[] = [];
  judgeExcludedNames('list.excludes', [excluded], new Map(offered.map((name) => [name, {}])), (check, what, _expected, actual) => found.push(`${check} ${what}: ${String(actual)}`));
  return found;
}

const plainName = fc.string({ unit: fc.constantFrom(...NAME_CHARS), minLength: 1, maxLength: 16 });
const choices = fc.infiniteStream(fc.nat());
const uri = fc
  .array(fc.string({ unit: fc.constantFrom(...URI_SEGMENT_CHARS), minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 })
  .map((segments) => `file:///${segments.join('/')}`);

describe('list.excludes and request.excludes', () => {
  it('fail when the hidden name is offered under another spelling, naming it', () => {
    fc.assert(
      fc.property(plainName, choices, (name, spell) => {
        const spelt = nameSpelling(name, spell);
        expect(failures(name, ['read_note', spelt])).toEqual([`list.excludes withholds ${name}: ${spelt === name ? 'offered' : `offered as ${JSON.stringify(spelt)}`}`]);
      }),
      PARAMETERS,
    );
  });

  it('fail when a hidden URI is offered with its scheme, host or escapes spelt otherwise', () => {
    fc.assert(
      fc.property(uri, choices, (hidden, spell) => {
        expect(failures(hidden, [uriSpelling(hidden, spell)])).toHaveLength(1);
      }),
      PARAMETERS,
    );
  });

  it('pass when what is offered is another name or URI, whatever its spelling', () => {
    fc.assert(
      fc.property(plainName, plainName, choices, (hidden, other, spell) => {
        fc.pre(hidden !== other);
        expect(failures(hidden, [nameSpelling(other, spell)])).toEqual([]);
      }),
      PARAMETERS,
    );
    fc.assert(
      fc.property(uri, uri, choices, (hidden, other, spell) => {
        fc.pre(hidden !== other);
        expect(failures(hidden, [uriSpelling(other, spell)])).toEqual([]);
      }),
      PARAMETERS,
    );
  });

  it('keep a name and a URI apart, and a path its case', () => {
    expect(itemKey('file:///notes/A')).not.toBe(itemKey('file:///notes/a'));
    expect(itemKey('FILE:///notes/%41')).toBe(itemKey('file:///notes/A'));
    expect(itemKey('Stra\u00dfe')).toBe(itemKey('STRASSE'));
    expect(failures('delete_note', ['delete_notes', 'note_delete', 'dеlete_note'])).toEqual([]);
  });
});

describe('list.hidden', () => {
  const recv: LedgerRecord = { ev: 'recv', pid: 5, seq: 0, bytes: 0, sha256: '', raw: '{}', raw_truncated: false, method: 'tools/list', id: '1', tool: null, phase: 'review' };

  /** What list.hidden reports for `folder` hidden when write_note's schema shows `shown`. */
  function hiddenFindings(shown: Record<string, unknown>): string[] {
    const tool = { name: 'write_note', inputSchema: { type: 'object', properties: shown } };
    const byName = new Map([['write_note', tool]]);
    const facts: ListFacts = { label: '3:list', mark: 0, end: 1, tools: [tool], byName, first: byName, sessionMark: 0 };
    const steps: StepRecord[] = [{ block: 'list', expect: { hidden: { write_note: ['folder'] } }, facts } as StepRecord];
    return judge(steps, { records: [recv], kind: 'attack', spec: {} as SessionSpec }, new Set()).findings.map((f) => `${f.check}: ${String(f.observed)}`);
  }

  it('fails when the hidden parameter is shown under any spelling, and passes another parameter', () => {
    fc.assert(
      fc.property(choices, (spell) => {
        const spelt = nameSpelling('folder', spell);
        expect(hiddenFindings({ id: {}, [spelt]: {} })).toEqual([`list.hidden: ${spelt === 'folder' ? 'shown' : `shown as ${JSON.stringify(spelt)}`}`]);
      }),
      PARAMETERS,
    );
    expect(hiddenFindings({ id: {}, folders: {}, subfolder: {} })).toEqual([]);
  });
});

describe('answer_excludes, listing_excludes, description_excludes and instructions_excludes', () => {
  const phrase = fc.array(fc.string({ unit: fc.constantFrom(...NAME_CHARS.filter((char) => /[a-z]/.test(char))), minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
  const around = fc.string({ maxLength: 12 });

  it('find a fragment the broker passed on in another case or in compatibility characters', () => {
    fc.assert(
      fc.property(phrase, choices, around, around, (fragment, spell, before, after) => {
        const received = `${before}${textSpelling(fragment, spell)}${after}`;
        expect(carrierOf(['unrelated', received], fragment)).toBe(received);
      }),
      PARAMETERS,
    );
  });

  it('find nothing in text that holds another phrase, whatever its spelling', () => {
    fc.assert(
      fc.property(phrase, phrase, choices, (fragment, other, spell) => {
        fc.pre(!other.includes(fragment));
        expect(carrierOf([textSpelling(other, spell)], fragment)).toBeUndefined();
      }),
      PARAMETERS,
    );
  });
});
