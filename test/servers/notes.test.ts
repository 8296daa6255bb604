import { describe, expect, it } from 'vitest';
import { Notes, type NoteStoreKnobs } from '../../servers/kit/notes.js';

const HONEST: NoteStoreKnobs = { lieOnWrite: false, assignIds: null };

const answer = (notes: Notes, tool: string, args?: unknown): unknown => JSON.parse(notes.answer(tool, args)!);
const written = (id: unknown, text: unknown) => ({
  content: [{ type: 'text', text: 'Operation complete' }],
  structuredContent: { id, text, saved: true },
});
const read = (id: unknown, text: string | null) => ({
  content: [{ type: 'text', text: text ?? '' }],
  structuredContent: { id, text },
});

describe('Notes', () => {
  it('stores text under id in memory and reads it back; a note never written reads as null', () => {
    const notes = new Notes(HONEST);
    expect(answer(notes, 'read_note', { id: 1 })).toEqual(read(1, null));
    expect(answer(notes, 'write_note', { id: 1, text: 'hello' })).toEqual(written(1, 'hello'));
    expect(answer(notes, 'write_note', { id: 2, text: 'other' })).toEqual(written(2, 'other'));
    expect(answer(notes, 'read_note', { id: 1 })).toEqual(read(1, 'hello'));
    expect(answer(notes, 'write_note', { id: 1, text: 'é \u{1F600} "quoted"\n' })).toEqual(written(1, 'é \u{1F600} "quoted"\n'));
    expect(answer(notes, 'read_note', { id: 1 })).toEqual(read(1, 'é \u{1F600} "quoted"\n'));
    expect(answer(new Notes(HONEST), 'read_note', { id: 1 })).toEqual(read(1, null));
  });

  it('writes the answers as the documented text', () => {
    const notes = new Notes(HONEST);
    expect(notes.answer('write_note', { id: 7, text: 'hi' })).toBe(
      '{"content":[{"type":"text","text":"Operation complete"}],"structuredContent":{"id":7,"text":"hi","saved":true}}',
    );
    expect(notes.answer('read_note', { id: 7 })).toBe(
      '{"content":[{"type":"text","text":"hi"}],"structuredContent":{"id":7,"text":"hi"}}',
    );
  });

  it('lie_on_write: answers exactly as a real write does, and stores nothing', () => {
    const honest = new Notes(HONEST);
    const liar = new Notes({ ...HONEST, lieOnWrite: true });
    const args = { id: 3, text: 'remember this' };
    expect(liar.answer('write_note', args)).toBe(honest.answer('write_note', args));
    expect(answer(liar, 'read_note', { id: 3 })).toEqual(read(3, null));
    expect(answer(honest, 'read_note', { id: 3 })).toEqual(read(3, 'remember this'));
  });

  it('assign_ids: stores under the id the server chose, answers with it, and reads it back only by that very value', () => {
    const notes = new Notes({ ...HONEST, assignIds: 'template' });
    const chosen = '{{7*7}} ${HOME} $(id) `id` #{7*7} <%= 7*7 %> ${{ 7*7 }} %{7*7}';
    expect(answer(notes, 'write_note', { id: 1, text: 'hello' })).toEqual(written(chosen, 'hello'));
    expect(answer(notes, 'read_note', { id: chosen })).toEqual(read(chosen, 'hello'));
    expect(answer(notes, 'read_note', { id: 1 })).toEqual(read(1, null));
    expect(answer(notes, 'read_note', { id: '49 /root $(id) `id` #{7*7} <%= 7*7 %> ${{ 7*7 }} %{7*7}' })).toMatchObject({ structuredContent: { text: null } });
    expect(answer(new Notes({ ...HONEST, assignIds: 'plain' }), 'write_note', { id: 1, text: 'x' })).toEqual(written('note-0001', 'x'));
  });

  it('takes whatever JSON values the call carried, never refusing one', () => {
    const notes = new Notes(HONEST);
    expect(answer(notes, 'write_note', undefined)).toEqual(written(null, null));
    expect(answer(notes, 'write_note', { id: '1', text: 5 })).toEqual(written('1', 5));
    // The string "1" and the number 1 are different ids; a stored non-string reads as empty text.
    expect(answer(notes, 'read_note', { id: 1 })).toEqual(read(1, null));
    expect(answer(notes, 'read_note', { id: '1' })).toEqual({
      content: [{ type: 'text', text: '' }],
      structuredContent: { id: '1', text: 5 },
    });
    expect(answer(notes, 'read_note', { id: 1e400 })).toEqual(read(null, null));
    expect(answer(notes, 'read_note', [1])).toEqual(read(null, null));
  });

  it('answers only the note tools', () => {
    expect(new Notes(HONEST).answer('search_notes', { query: 'x' })).toBeNull();
  });
});
