import { describe, expect, it } from 'vitest';
import { KnobError, parseAssignments, resolveKnobs } from '../../servers/kit/knobs.js';

describe('parseAssignments', () => {
  it('reads key=value, splitting at the first =, later assignments winning', () => {
    expect(parseAssignments(['page_size=2', 'run.add=a=b', 'page_size=3'])).toEqual({
      page_size: '3',
      'run.add': 'a=b',
    });
  });

  it.each(['page_size', '=3', ''])('refuses %j', (arg) => {
    expect(() => parseAssignments([arg])).toThrow(KnobError);
  });
});

describe('resolveKnobs', () => {
  it('defaults to the honest notes tool set on one page', () => {
    expect(resolveKnobs({})).toEqual({
      toolset: 'notes',
      pageSize: null,
      filler: 0,
      duplicate: null,
      duplicatePage: 'same',
      cursor: 'normal',
      runDescription: null,
      runSchema: null,
      bignum: null,
      runReserialise: false,
      runDrop: null,
      runAdd: null,
      annotations: {},
      poisoned: new Set(),
    });
  });

  it('reads every knob into its typed field', () => {
    const knobs = resolveKnobs({
      toolset: 'notes',
      page_size: '100',
      filler: '0',
      duplicate: 'search_notes',
      duplicate_page: 'next',
      cursor: 'endless',
      'run.description': 'search_notes',
      'run.schema': 'write_note',
      bignum: 'read_note',
      'run.reserialise': '1',
      'run.drop': 'read_note',
      'run.add': 'export_all_notes',
      'annotations.write_note': 'readonly-destructive',
      'description.search_notes': 'poisoned',
    });
    expect(knobs).toMatchObject({
      pageSize: 100,
      filler: 0,
      duplicate: 'search_notes',
      duplicatePage: 'next',
      cursor: 'endless',
      runDescription: 'search_notes',
      runSchema: 'write_note',
      bignum: 'read_note',
      runReserialise: true,
      runDrop: 'read_note',
      runAdd: 'export_all_notes',
      annotations: { write_note: 'readonly-destructive' },
    });
    expect([...knobs.poisoned]).toEqual(['search_notes']);
  });

  it.each([
    ['unknown knob', { pages: '2' }, /unknown knob "pages"/],
    ['unknown tool set', { toolset: 'files' }, /toolset/],
    ['page_size 0', { page_size: '0' }, /page_size/],
    ['page_size negative', { page_size: '-1' }, /page_size/],
    ['page_size fraction', { page_size: '1.5' }, /page_size/],
    ['page_size leading zero', { page_size: '01' }, /page_size/],
    ['page_size beyond safe integers', { page_size: '9007199254740993' }, /page_size/],
    ['filler not a number', { filler: 'many' }, /filler/],
    ['duplicate of an unknown tool', { duplicate: 'delete_all' }, /duplicate/],
    ['duplicate_page elsewhere', { duplicate_page: 'first' }, /duplicate_page/],
    ['cursor mode', { cursor: 'sideways' }, /cursor/],
    ['run.description of an unknown tool', { 'run.description': 'x' }, /run\.description/],
    ['run.schema empty', { 'run.schema': '' }, /run\.schema/],
    ['bignum of an unknown tool', { bignum: 'filler_0001' }, /bignum/],
    ['run.reserialise 0', { 'run.reserialise': '0' }, /run\.reserialise/],
    ['run.drop of an unknown tool', { 'run.drop': 'x' }, /run\.drop/],
    ['run.add of a listed tool', { 'run.add': 'search_notes' }, /run\.add/],
    ['run.add of a filler name', { 'run.add': 'filler_0001' }, /run\.add/],
    ['run.add of a bad name', { 'run.add': 'two words' }, /run\.add/],
    ['annotations of an unknown tool', { 'annotations.x': 'readonly' }, /annotations\.x/],
    ['annotations preset', { 'annotations.read_note': 'mostly' }, /annotations\.read_note/],
    ['description variant', { 'description.read_note': 'honest' }, /description\.read_note/],
  ])('refuses %s', (_name, assigned, message) => {
    expect(() => resolveKnobs(assigned)).toThrow(KnobError);
    expect(() => resolveKnobs(assigned)).toThrow(message);
  });
});
