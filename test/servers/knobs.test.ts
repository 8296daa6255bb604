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
  it('defaults to the honest notes tool set on one page, every misbehaviour off', () => {
    // Said by what an honest default is rather than by a copy of the defaults table, so a new
    // knob is held to it without being written down twice.
    const { toolset, filler, duplicatePage, cursor, canaryPort, revisions, requestState, cacheHint, taskIds, paramHeaders, ...misbehaviours } = resolveKnobs({});
    expect({ toolset, filler, duplicatePage, cursor, canaryPort, revisions, requestState, cacheHint, taskIds, paramHeaders }).toEqual({
      toolset: 'notes',
      filler: 0,
      duplicatePage: 'same',
      cursor: 'normal',
      canaryPort: 9,
      revisions: ['2025-11-25'],
      requestState: 'sealed',
      cacheHint: { scope: 'private', ttl: '1000' },
      taskIds: 'sealed',
      paramHeaders: 'checked',
    });
    for (const [knob, value] of Object.entries(misbehaviours)) {
      expect([knob, value === null || value === false || (typeof value === 'object' && Object.keys(value).length === 0)]).toEqual([knob, true]);
    }
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
      'run.description_widened': 'read_note',
      'run.schema': 'write_note',
      bignum: 'read_note',
      'run.reserialise': '1',
      'run.drop': 'read_note',
      'run.add': 'export_all_notes',
      'run.output_schema': 'read_note',
      notify_list_changed: '1',
      'annotations.write_note': 'readonly-destructive',
      'description.search_notes': 'poisoned',
      'schema.search_notes': 'ref-url',
      canary_port: '65535',
      'name.search_notes': 'search notes; rm -rf ~ "now" \u00e9\u{1f600}',
      hang_on_call: 'read_note',
      hang_on: 'tools/list',
      die_on_call: 'search_notes',
      'output.read_note': 'oversized',
      'result.search_notes': 'long-string-70000',
      'result.read_note': 'secret-github',
      lie_on_write: '1',
      assign_ids: 'template',
      kill_watchdog: '1',
      http_redirect_to: 'fd00::5',
      revisions: '2026-07-28,2025-11-25',
    });
    expect(knobs).toMatchObject({
      revisions: ['2026-07-28', '2025-11-25'],
      pageSize: 100,
      filler: 0,
      duplicate: 'search_notes',
      duplicatePage: 'next',
      cursor: 'endless',
      runDescription: 'search_notes',
      runDescriptionWidened: 'read_note',
      runSchema: 'write_note',
      bignum: 'read_note',
      runReserialise: true,
      runDrop: 'read_note',
      runAdd: 'export_all_notes',
      runOutputSchema: 'read_note',
      notifyListChanged: true,
      annotations: { write_note: 'readonly-destructive' },
      schemas: { search_notes: 'ref-url' },
      canaryPort: 65535,
      names: { search_notes: 'search notes; rm -rf ~ "now" \u00e9\u{1f600}' },
      hangOnCall: 'read_note',
      hangOn: 'tools/list',
      dieOnCall: 'search_notes',
      descriptions: { search_notes: 'poisoned' },
      outputs: { read_note: 'oversized' },
      results: { search_notes: { family: 'long-string', n: 70000 }, read_note: 'secret-github' },
      lieOnWrite: true,
      assignIds: 'template',
      killWatchdog: true,
      httpRedirectTo: 'fd00::5',
    });
    expect(resolveKnobs({ 'error.write_note': 'forged-lines' }).errors).toEqual({ write_note: 'forged-lines' });
    expect(resolveKnobs({ 'echo_env.search_notes': 'NOTES_API_TOKEN' }).echoEnv).toEqual({ search_notes: { variable: 'NOTES_API_TOKEN', encoding: null } });
    expect(resolveKnobs({ 'echo_env.search_notes': 'basic-auth:A', 'echo_env.read_note': 'hex:B', 'echo_env.write_note': 'percent:C' }).echoEnv).toEqual({
      search_notes: { variable: 'A', encoding: 'basic-auth' },
      read_note: { variable: 'B', encoding: 'hex' },
      write_note: { variable: 'C', encoding: 'percent' },
    });
  });

  it('reads sized presets at both ends of their ranges', () => {
    const knobs = resolveKnobs({
      'result.search_notes': 'chars-1',
      'result.read_note': 'bytes-1073741824',
      'result.write_note': 'aggregate-2',
      'description.search_notes': 'long-1048576',
      'description.read_note': 'long-1',
      'schema.write_note': 'deep-100000',
      'schema.read_note': 'deep-1',
    });
    expect(knobs).toMatchObject({
      results: {
        search_notes: { family: 'chars', n: 1 },
        read_note: { family: 'bytes', n: 1073741824 },
        write_note: { family: 'aggregate', n: 2 },
      },
      descriptions: { search_notes: { family: 'long', n: 1048576 }, read_note: { family: 'long', n: 1 } },
      schemas: { write_note: { family: 'deep', n: 100000 }, read_note: { family: 'deep', n: 1 } },
    });
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

  it('reads cache_hint as written: a scope of its own and any integer literal, negative or past 2^53', () => {
    expect(resolveKnobs({ cache_hint: 'public:86400000' }).cacheHint).toEqual({ scope: 'public', ttl: '86400000' });
    expect(resolveKnobs({ cache_hint: 'private:-1' }).cacheHint).toEqual({ scope: 'private', ttl: '-1' });
    expect(resolveKnobs({ cache_hint: 'GAUNTLET-CANARY-5eed0f00dcafe123:9007199254740993' }).cacheHint).toEqual({ scope: 'GAUNTLET-CANARY-5eed0f00dcafe123', ttl: '9007199254740993' });
    expect(resolveKnobs({ cache_hint_round_trip: '1', 'ask.write_note': 'elicit-form' }).cacheHintRoundTrip).toBe(true);
  });

  it.each([
    ['unknown knob', { pages: '2' }, /unknown knob "pages"/],
    ['cache_hint without a time to live', { cache_hint: 'public' }, /cache_hint/],
    ['cache_hint with a fractional time to live', { cache_hint: 'public:1.5' }, /cache_hint/],
    ['cache_hint with a scope that would need escaping', { cache_hint: 'pub"lic:1' }, /cache_hint/],
    ['cache_hint_round_trip without an ask', { cache_hint_round_trip: '1' }, /cache_hint_round_trip needs an ask/],
    ['run.output_schema without an output schema', { 'run.output_schema': 'read_note' }, /needs output\.read_note/],
    ['output_schema.TOOL without an output schema', { 'output_schema.read_note': 'injection' }, /needs output\.read_note/],
    ['output_schema.TOOL other than injection', { 'output.read_note': 'valid', 'output_schema.read_note': 'loud' }, /output_schema\.read_note/],
    ['run.execution on a tool already listed as required', { 'run.execution': 'read_note', 'execution.read_note': 'required' }, /changes nothing/],
    ['execution.TOOL outside the task support values', { 'execution.read_note': 'always' }, /execution\.read_note/],
    ['notify_list_changed other than 1', { notify_list_changed: 'yes' }, /notify_list_changed/],
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
    ['description long-0', { 'description.read_note': 'long-0' }, /description\.read_note.*long-<N> with N 1\.\.1048576/],
    ['description long past its range', { 'description.read_note': 'long-1048577' }, /description\.read_note/],
    ['description of a result family', { 'description.read_note': 'chars-10' }, /description\.read_note/],
    ['schema deep-0', { 'schema.write_note': 'deep-0' }, /schema\.write_note/],
    ['schema deep past its range', { 'schema.write_note': 'deep-100001' }, /deep-<N> with N 1\.\.100000/],
    ['schema deep with bignum on the same tool', { 'schema.read_note': 'deep-40', bignum: 'read_note' }, /bignum/],
    ['output preset unknown', { 'output.read_note': 'valid-ish' }, /bad value "valid-ish" for knob output\.read_note/],
    ['output of an unknown tool', { 'output.x': 'valid' }, /output\.x/],
    ['result preset unknown', { 'result.search_notes': 'nonsense' }, /bad value "nonsense" for knob result\.search_notes/],
    ['result preset empty', { 'result.search_notes': '' }, /result\.search_notes/],
    ['result of an unknown tool', { 'result.x': 'plain' }, /result\.x/],
    ['result chars-0', { 'result.search_notes': 'chars-0' }, /chars-<N> with N 1\.\.200000/],
    ['result chars past its range', { 'result.search_notes': 'chars-200001' }, /result\.search_notes/],
    ['result split-0', { 'result.search_notes': 'split-0' }, /result\.search_notes/],
    ['result bytes under its range', { 'result.search_notes': 'bytes-63' }, /bytes-<N> with N 64\.\.1073741824/],
    ['result bytes past its range', { 'result.search_notes': 'bytes-1073741825' }, /result\.search_notes/],
    ['result deep past its range', { 'result.search_notes': 'deep-1000001' }, /result\.search_notes/],
    ['result nodes-0', { 'result.search_notes': 'nodes-0' }, /result\.search_notes/],
    ['result long-string past its range', { 'result.search_notes': 'long-string-16777217' }, /result\.search_notes/],
    ['result aggregate-1', { 'result.search_notes': 'aggregate-1' }, /aggregate-<N> with N 2\.\.16777216/],
    ['result size with a leading zero', { 'result.search_notes': 'chars-010' }, /result\.search_notes/],
    ['result size not a number', { 'result.search_notes': 'chars-ten' }, /result\.search_notes/],
    ['result size negative', { 'result.search_notes': 'chars--5' }, /result\.search_notes/],
    ['result size beyond safe integers', { 'result.search_notes': 'bytes-9007199254740993' }, /result\.search_notes/],
    ['result family unknown', { 'result.search_notes': 'lines-10' }, /result\.search_notes/],
    ['result family of a description', { 'result.search_notes': 'long-10' }, /result\.search_notes/],
    ['lie_on_write 0', { lie_on_write: '0' }, /lie_on_write/],
    ['lie_on_write with result.write_note', { lie_on_write: '1', 'result.write_note': 'plain' }, /lie_on_write and result\.write_note/],
    ['lie_on_write with output.write_note', { lie_on_write: '1', 'output.write_note': 'valid' }, /lie_on_write and output\.write_note/],
    ['lie_on_write with error.write_note', { lie_on_write: '1', 'error.write_note': 'plain' }, /lie_on_write and error\.write_note/],
    ['assign_ids with result.write_note', { assign_ids: 'plain', 'result.write_note': 'plain' }, /assign_ids and result\.write_note/],
    ['assign_ids unknown', { assign_ids: 'random' }, /assign_ids/],
    ['error.<tool> unknown preset', { 'error.search_notes': 'crash' }, /error\.search_notes/],
    ['echo_env.<tool> not a variable name', { 'echo_env.search_notes': 'A-B' }, /echo_env\.search_notes/],
    ['echo_env.<tool> unknown encoding', { 'echo_env.search_notes': 'base32:A' }, /"base32:A" for knob echo_env\.search_notes: .*basic-auth:, hex:, percent:/],
    ['echo_env.<tool> encoding without a name', { 'echo_env.search_notes': 'hex:' }, /echo_env\.search_notes/],
    ['echo_env.<tool> encoding twice', { 'echo_env.search_notes': 'hex:hex:A' }, /echo_env\.search_notes/],
    ['echo_env.<tool> with error.<tool>', { 'echo_env.search_notes': 'X', 'error.search_notes': 'plain' }, /error\.search_notes and echo_env\.search_notes/],
    ['echo_env.<tool> with output.<tool>', { 'echo_env.read_note': 'X', 'output.read_note': 'valid' }, /echo_env\.read_note and output\.read_note/],
    ['lie_on_write with echo_env.write_note', { lie_on_write: '1', 'echo_env.write_note': 'X' }, /lie_on_write and echo_env\.write_note/],
    ['error.<tool> with result.<tool>', { 'error.search_notes': 'plain', 'result.search_notes': 'plain' }, /error\.search_notes and result\.search_notes/],
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
    ['hang_on a method it cannot leave unanswered', { hang_on: 'tools/call' }, /hang_on/],
    ['die_on_call empty', { die_on_call: '' }, /die_on_call/],
    ['hang and die on the same tool', { hang_on_call: 'write_note', die_on_call: 'write_note' }, /hang_on_call and die_on_call/],
    ['http_redirect_to not an address', { http_redirect_to: 'notes.example' }, /http_redirect_to/],
    ['http_redirect_to with http_redirect_calls', { http_redirect_to: '127.0.0.2', http_redirect_calls: '1' }, /http_redirect_calls and http_redirect_to/],
    ['kill_watchdog other than 1', { kill_watchdog: 'yes' }, /kill_watchdog/],
    ['run.description_widened of an unknown tool', { 'run.description_widened': 'x' }, /run\.description_widened/],
    ['rendezvous of one call', { 'rendezvous.search_notes': '1' }, /rendezvous\.search_notes.*2\.\.8/],
    ['rendezvous of nine calls', { 'rendezvous.search_notes': '9' }, /rendezvous\.search_notes/],
    ['rendezvous with notify on the same tool', { 'rendezvous.search_notes': '2', 'notify.search_notes': 'log' }, /rendezvous\.search_notes and notify\.search_notes/],
    ['rendezvous with error on the same tool', { 'rendezvous.search_notes': '2', 'error.search_notes': 'plain' }, /rendezvous\.search_notes/],
  ])('refuses %s', (_name, assigned, message) => {
    expect(() => resolveKnobs(assigned)).toThrow(KnobError);
    expect(() => resolveKnobs(assigned)).toThrow(message);
  });
});
