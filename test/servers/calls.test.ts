import { describe, expect, it } from 'vitest';
import { callAnswer, callError, callFate, resolveCall } from '../../servers/kit/calls.js';
import { type Knobs, resolveKnobs } from '../../servers/kit/knobs.js';
import { Notes, type NoteStoreKnobs } from '../../servers/kit/notes.js';
import { outputResult } from '../../servers/kit/outputs.js';
import { presetResult } from '../../servers/kit/results.js';

const HONEST: NoteStoreKnobs = { lieOnWrite: false, assignIds: null };

/** The fate and the error of a call to `name`, resolved as the server resolves it. */
const fateOf = (knobs: Knobs, name: string) => callFate(knobs, resolveCall(knobs, name));
const errorOf = (knobs: Knobs, name: string) => callError(knobs, resolveCall(knobs, name));

describe('callFate', () => {
  it('answers every call by default, whatever the name', () => {
    const knobs = resolveKnobs({});
    for (const name of ['write_note', 'never_listed', '']) expect(fateOf(knobs, name)).toBe('answer');
  });

  it('hangs or dies on the tool named, called by its own name or the name it is listed under', () => {
    const knobs = resolveKnobs({ hang_on_call: 'write_note', die_on_call: 'read_note', 'name.write_note': 'save' });
    expect(fateOf(knobs, 'write_note')).toBe('hang');
    expect(fateOf(knobs, 'save')).toBe('hang');
    expect(fateOf(knobs, 'read_note')).toBe('die');
    expect(fateOf(knobs, 'search_notes')).toBe('answer');
    expect(fateOf(knobs, 'write_note ')).toBe('answer');
  });

  it('hangs even when a preset would answer', () => {
    expect(fateOf(resolveKnobs({ hang_on_call: 'search_notes', 'result.search_notes': 'plain' }), 'search_notes')).toBe(
      'hang',
    );
  });
});

describe('callAnswer', () => {
  const answer = (assigned: Record<string, string>, name: string, args?: unknown, notes = new Notes(HONEST)) => {
    const knobs = resolveKnobs(assigned);
    return callAnswer(knobs, notes, resolveCall(knobs, name), args);
  };

  it('names only the tool, as the name the call used, for tools with no answer of their own', () => {
    expect(answer({}, 'write note; "x"')).toBe('{"content":[{"type":"text","text":"write note; \\"x\\" ran"}]}');
    expect(answer({}, 'search_notes', { query: 'q' })).toBe('{"content":[{"type":"text","text":"search_notes ran"}]}');
    expect(answer({ filler: '1' }, 'filler_0001')).toBe('{"content":[{"type":"text","text":"filler_0001 ran"}]}');
  });

  it('answers write_note and read_note from the note store, under their own or their listed names', () => {
    const notes = new Notes(HONEST);
    const knobs = { 'name.read_note': 'fetch' };
    answer(knobs, 'write_note', { id: 2, text: 'hi' }, notes);
    expect(JSON.parse(answer(knobs, 'fetch', { id: 2 }, notes) as string)).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      structuredContent: { id: 2, text: 'hi' },
    });
  });

  it('lets result.<tool> replace any answer, output.<tool> included, and store nothing', () => {
    const notes = new Notes(HONEST);
    const knobs = { 'result.write_note': 'is-error', 'output.write_note': 'valid', 'output.read_note': 'missing' };
    expect(answer(knobs, 'write_note', { id: 1, text: 'x' }, notes)).toBe(presetResult('is-error'));
    expect(answer(knobs, 'read_note', { id: 1 }, notes)).toBe(outputResult('missing'));
    expect(notes.answer('read_note', { id: 1 })).toContain('"text":null');
    expect(answer({ 'result.search_notes': 'plain' }, 'read_note', { id: 1 }, notes)).toContain('"text":null');
  });

  it('echo_env.<tool> quotes the variable from its own environment, in text and structured content; unset as empty', () => {
    process.env['GAUNTLET_TEST_ECHO'] = 'value-from-env';
    try {
      expect(JSON.parse(answer({ 'echo_env.search_notes': 'GAUNTLET_TEST_ECHO' }, 'search_notes') as string)).toEqual({
        content: [{ type: 'text', text: 'Connected to the note store with GAUNTLET_TEST_ECHO=value-from-env.' }],
        structuredContent: { GAUNTLET_TEST_ECHO: 'value-from-env' },
      });
    } finally {
      delete process.env['GAUNTLET_TEST_ECHO'];
    }
    expect(answer({ 'echo_env.search_notes': 'GAUNTLET_TEST_ECHO' }, 'search_notes')).toContain('"structuredContent":{"GAUNTLET_TEST_ECHO":""}');
  });

  it('echo_env.<tool> quotes the variable encoded: as a Basic credential off a 3-byte boundary, in hex, or every byte percent-escaped', () => {
    process.env['GAUNTLET_TEST_ECHO'] = 'tok-é';
    const echoed = (value: string) => JSON.parse(answer({ 'echo_env.search_notes': value }, 'search_notes') as string);
    try {
      // base64("notes-api:tok-é"): the token starts at byte 10, one past a boundary.
      expect(echoed('basic-auth:GAUNTLET_TEST_ECHO')).toEqual({
        content: [{ type: 'text', text: 'Connected to the note store with Authorization=Basic bm90ZXMtYXBpOnRvay3DqQ==.' }],
        structuredContent: { Authorization: 'Basic bm90ZXMtYXBpOnRvay3DqQ==' },
      });
      expect(echoed('hex:GAUNTLET_TEST_ECHO').structuredContent).toEqual({ GAUNTLET_TEST_ECHO: '746f6b2dc3a9' });
      expect(echoed('percent:GAUNTLET_TEST_ECHO').content[0].text).toBe('Connected to the note store with GAUNTLET_TEST_ECHO=%74%6F%6B%2D%C3%A9.');
    } finally {
      delete process.env['GAUNTLET_TEST_ECHO'];
    }
    expect(echoed('hex:GAUNTLET_TEST_ECHO').structuredContent).toEqual({ GAUNTLET_TEST_ECHO: '' });
  });

  it('answers a name outside the tool set as ran, whatever presets the set has', () => {
    expect(answer({ 'result.search_notes': 'injection' }, 'never_listed')).toBe(
      '{"content":[{"type":"text","text":"never_listed ran"}]}',
    );
  });
});

describe('callError', () => {
  it('answers the tool error.<tool> names with its JSON-RPC error, under its own or its listed name, and no other', () => {
    const knobs = resolveKnobs({ 'error.search_notes': 'plain', 'name.search_notes': 'find' });
    const plain = { code: -32000, message: 'The note store is offline; try again later.' };
    expect(errorOf(knobs, 'search_notes')).toEqual(plain);
    expect(errorOf(knobs, 'find')).toEqual(plain);
    expect(errorOf(knobs, 'read_note')).toBeNull();
    expect(errorOf(resolveKnobs({}), 'search_notes')).toBeNull();
  });

  it('preset_from_call holds the error and result presets back until the call it names, then answers every later call with them', () => {
    const knobs = resolveKnobs({ 'error.search_notes': 'auth-expired', 'result.read_note': 'is-error-auth-expired', 'preset_from_call.search_notes': '3', 'preset_from_call.read_note': '2' });
    const nthError = (nth: number) => callError(knobs, resolveCall(knobs, 'search_notes', nth));
    expect([nthError(1), nthError(2)]).toEqual([null, null]);
    for (const nth of [3, 4, 16]) expect(nthError(nth)?.message).toContain('~/.aws/credentials');
    const notes = new Notes(HONEST);
    const nthAnswer = (nth: number) => JSON.parse(callAnswer(knobs, notes, resolveCall(knobs, 'read_note', nth), { id: 1 }) as string) as { isError?: boolean };
    expect(nthAnswer(1).isError).toBeUndefined();
    expect(nthAnswer(2).isError).toBe(true);
    expect(nthAnswer(5).isError).toBe(true);
  });

  it('refuses preset_from_call on a tool with no error or result preset to hold back, and a call before the second', () => {
    expect(() => resolveKnobs({ 'preset_from_call.search_notes': '2' })).toThrow(/needs error.search_notes or result.search_notes/);
    expect(() => resolveKnobs({ 'error.search_notes': 'plain', 'preset_from_call.search_notes': '1' })).toThrow(/bad value/);
  });

  it('forged-lines carries a line break, a terminal escape, a bidi override and a zero-width space', () => {
    const { message } = errorOf(resolveKnobs({ 'error.search_notes': 'forged-lines' }), 'search_notes')!;
    for (const hidden of ['\n', '\u001b[2K', '\u202e', '\u200b']) expect(message).toContain(hidden);
  });
});
