// An effect contract's evaluation on its own (src/result/contract.ts): the read-back's arguments
// copied from the call, and every check operator on values that hold it, values that do not, and
// values a selector cannot find (which fail: an unverifiable write is not a verified one). The
// numbers compared are the server's, so they are compared by exact value, not as float64s.
// result-path.test.ts shows a contract at work through the session.

import { describe, expect, it } from 'vitest';
import { failedCheck, readbackArguments, type Sources } from '../../src/result/contract.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { Check, CheckOp, Contract, Selector } from '../../src/types.js';

const SOURCES: Sources = {
  arguments: readJson('{"id":7,"text":"hello","tags":["a","b"]}'),
  result: readJson('{"id":7,"version":2,"big":9007199254740993,"pair":[1,{"k":"v"}]}'),
  readback: readJson('{"text":"hello","version":2.0,"big":9007199254740992,"title":"hello world","items":[{"k":"v"}],"note":null,"odd":"undefined, a, b"}'),
};

const at = (from: Selector['from'], pointer: string): Selector => ({ from, pointer });
const contract = (checks: readonly Check[], readbackArguments: Contract['readbackArguments'] = []): Contract => ({ readbackTool: 'read_note', readbackArguments, checks });
const check = (left: Selector, op: CheckOp, right?: Selector): Check => ({ left, op, right });

describe('readbackArguments', () => {
  it('copies each argument from where its selector points, in order', () => {
    const args = readbackArguments(contract([], [['note', at('arguments', '/id')], ['rev', at('result', '/version')], ['first', at('result', '/pair/1')]]), SOURCES);
    expect(typeof args === 'string' ? args : writeJson(args)).toBe('{"note":7,"rev":2,"first":{"k":"v"}}');
  });

  it.each([
    ['a pointer to nothing', at('result', '/missing'), 'the read-back argument "note" has no value at result /missing'],
    ['a source not there yet', at('readback', '/text'), 'the read-back argument "note" has no value at readback /text'],
  ])('says which argument has no value, for %s', (_, selector, reason) => {
    const sources = { ...SOURCES, readback: undefined };
    expect(readbackArguments(contract([], [['id', at('arguments', '/id')], ['note', selector]]), sources)).toBe(reason);
  });
});

describe('failedCheck', () => {
  /** `from/pointer`, as the table below writes a selector. */
  const sel = (text: string): Selector => {
    const slash = text.indexOf('/');
    return at(text.slice(0, slash) as Selector['from'], text.slice(slash));
  };
  it.each([
    // Equal by canonical value: 2 and 2.0 are one number, however spelt.
    ['equals', 'readback/text', 'arguments/text', 'readback/title'],
    ['equals', 'readback/version', 'result/version', 'result/id'],
    ['not_equals', 'readback/title', 'arguments/text', 'readback/title'],
    // 2^53 + 1 and 2^53 are one float64 but two numbers.
    ['not_equals', 'readback/big', 'result/big', 'readback/big'],
    ['less_than', 'readback/big', 'result/big', 'readback/big'],
    ['less_than', 'result/version', 'result/id', 'readback/version'],
    ['greater_than', 'result/big', 'readback/big', 'result/big'],
    // Strings by code units: a prefix is less.
    ['greater_than', 'readback/title', 'readback/text', 'readback/title'],
    ['less_than', 'readback/text', 'readback/title', 'readback/text'],
    ['contains', 'readback/title', 'arguments/text', 'readback/items/0/k'],
    ['contains', 'readback/items', 'result/pair/1', 'result/pair/0'],
    ['contains', 'arguments/tags', 'arguments/tags/1', 'readback/items/0/k'],
  ] as const)('%s holds for %s against %s, and not against %s', (op, left, right, other) => {
    expect(failedCheck(contract([check(sel(left), op, sel(right))]), SOURCES)).toBeNull();
    const l = sel(left);
    const o = sel(other);
    expect(failedCheck(contract([check(l, op, o)]), SOURCES)).toBe(`${l.from} ${l.pointer} ${op} ${o.from} ${o.pointer} does not hold`);
  });

  it.each([
    ['a number and a string do not compare', check(at('result', '/id'), 'less_than', at('arguments', '/text'))],
    ['a string and a number do not compare', check(at('arguments', '/text'), 'greater_than', at('result', '/id'))],
    ['a string contains no list, even one whose items it spells', check(at('readback', '/odd'), 'contains', at('arguments', '/tags'))],
    ['a missing left value fails against one that is there', check(at('result', '/none'), 'equals', at('result', '/id'))],
    ['objects do not compare', check(at('result', '/pair/1'), 'greater_than', at('result', '/pair/1'))],
    ['a number does not contain anything', check(at('result', '/id'), 'contains', at('result', '/id'))],
    ['a string does not contain a number', check(at('arguments', '/text'), 'contains', at('result', '/id'))],
    ['a missing left value fails, even against another missing one', check(at('result', '/none'), 'equals', at('readback', '/none'))],
    ['a missing right value fails not_equals too', check(at('result', '/id'), 'not_equals', at('readback', '/none'))],
    ['a check without a right side fails anything but present', check(at('result', '/id'), 'equals')],
  ])('%s', (_, failing) => {
    expect(failedCheck(contract([failing]), SOURCES)).toMatch(/ does not hold$/);
  });

  it('present holds for any value there, null included, and fails for none', () => {
    expect(failedCheck(contract([check(at('readback', '/note'), 'present')]), SOURCES)).toBeNull();
    expect(failedCheck(contract([check(at('readback', '/gone'), 'present')]), { ...SOURCES })).toBe('readback /gone present does not hold');
    expect(failedCheck(contract([check(at('readback', '/text'), 'present')]), { ...SOURCES, readback: undefined })).toBe('readback /text present does not hold');
  });

  it('names the first check that fails, after every one before it held', () => {
    const checks = [check(at('readback', '/text'), 'equals', at('arguments', '/text')), check(at('result', '/id'), 'greater_than', at('result', '/version')), check(at('result', '/id'), 'less_than', at('result', '/version'))];
    expect(failedCheck(contract(checks), SOURCES)).toBe('result /id less_than result /version does not hold');
    expect(failedCheck(contract(checks.slice(0, 2)), SOURCES)).toBeNull();
  });
});
