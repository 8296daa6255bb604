import { describe, expect, it } from 'vitest';
import { callFate, callResult } from '../../servers/kit/calls.js';
import { resolveKnobs } from '../../servers/kit/knobs.js';

describe('callFate', () => {
  it('answers every call by default, whatever the name', () => {
    const knobs = resolveKnobs({});
    for (const name of ['write_note', 'never_listed', '']) expect(callFate(knobs, name)).toBe('answer');
  });

  it('hangs or dies on the tool named, called by its own name or the name it is listed under', () => {
    const knobs = resolveKnobs({ hang_on_call: 'write_note', die_on_call: 'read_note', 'name.write_note': 'save' });
    expect(callFate(knobs, 'write_note')).toBe('hang');
    expect(callFate(knobs, 'save')).toBe('hang');
    expect(callFate(knobs, 'read_note')).toBe('die');
    expect(callFate(knobs, 'search_notes')).toBe('answer');
    expect(callFate(knobs, 'write_note ')).toBe('answer');
  });
});

describe('callResult', () => {
  it('names only the tool, as the name the call used', () => {
    expect(callResult('write note; "x"')).toBe('{"content":[{"type":"text","text":"write note; \\"x\\" ran"}]}');
  });
});
