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
      schemas: {},
      canaryPort: 9,
      names: {},
      hangOnCall: null,
      dieOnCall: null,
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
      'schema.search_notes': 'ref-url',
      canary_port: '65535',
      'name.search_notes': 'search notes; rm -rf ~ "now" \u00e9\u{1f600}',
      hang_on_call: 'read_note',
      die_on_call: 'search_notes',
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
      schemas: { search_notes: 'ref-url' },
      canaryPort: 65535,
      names: { search_notes: 'search notes; rm -rf ~ "now" \u00e9\u{1f600}' },
      hangOnCall: 'read_note',
      dieOnCall: 'search_notes',
    });
    expect([...knobs.poisoned]).toEqual(['search_notes']);
  });

  it('takes a listed name of exactly 300 characters, counting code points', () => {
    const name = '\u{1f600}'.repeat(300);
    expect(resolveKnobs({ 'name.write_note': name }).names).toEqual({ write_note: name });
  });

  it('refuses a listed name only when another tool has it', () => {
    expect(resolveKnobs({ 'name.write_note': 'write_note' }).names).toEqual({ write_note: 'write_note' });
    expect(resolveKnobs({ 'name.write_note': 'filler_0003', filler: '2' }).names).toEqual({ write_note: 'filler_0003' });
    expect(resolveKnobs({ 'name.write_note': 'filler_2', filler: '2' }).names).toEqual({ write_note: 'filler_2' });
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
    ['schema preset unknown', { 'schema.write_note': 'with-folders' }, /bad value "with-folders" for knob schema\.write_note/],
    ['schema preset empty', { 'schema.write_note': '' }, /schema\.write_note/],
    ['schema of an unknown tool', { 'schema.x': 'with-folder' }, /schema\.x/],
    ['schema with bignum on the same tool', { 'schema.read_note': 'keywords', bignum: 'read_note' }, /bignum/],
    ['schema with run.schema on the same tool', { 'schema.write_note': 'keywords', 'run.schema': 'write_note' }, /run\.schema/],
    ['canary_port 0', { canary_port: '0' }, /canary_port/],
    ['canary_port 65536', { canary_port: '65536' }, /canary_port.*1\.\.65535/],
    ['canary_port not a number', { canary_port: 'http' }, /canary_port/],
    ['canary_port leading zero', { canary_port: '080' }, /canary_port/],
    ['name empty', { 'name.write_note': '' }, /name\.write_note/],
    ['name of 301 characters', { 'name.write_note': 'x'.repeat(301) }, /name\.write_note/],
    ['name of an unknown tool', { 'name.x': 'y' }, /name\.x/],
    ['name that is another tool\'s own', { 'name.write_note': 'read_note' }, /name\.write_note/],
    ['name another tool is listed under', { 'name.write_note': 'n', 'name.read_note': 'n' }, /name\./],
    ['name that run.add lists', { 'name.write_note': 'export', 'run.add': 'export' }, /name\.write_note/],
    ['name of a listed filler', { 'name.write_note': 'filler_0002', filler: '2' }, /name\.write_note/],
    ['hang_on_call of an unknown tool', { hang_on_call: 'x' }, /hang_on_call/],
    ['die_on_call empty', { die_on_call: '' }, /die_on_call/],
    ['hang and die on the same tool', { hang_on_call: 'write_note', die_on_call: 'write_note' }, /hang_on_call and die_on_call/],
  ])('refuses %s', (_name, assigned, message) => {
    expect(() => resolveKnobs(assigned)).toThrow(KnobError);
    expect(() => resolveKnobs(assigned)).toThrow(message);
  });
});
