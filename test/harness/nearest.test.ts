import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearest } from '../../harness/nearest.js';

describe('the nearest known word', () => {
  it('counts a swap of neighbouring letters as one edit, like an insertion, a deletion or a substitution', () => {
    expect(editDistance('candidate', 'candidate')).toBe(0);
    expect(editDistance('canddiate', 'candidate')).toBe(1);
    expect(editDistance('mcp-prox', 'mcp-proxy')).toBe(1);
    expect(editDistance('rn', 'run')).toBe(1);
    expect(editDistance('step-timout', 'step-timeout')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests the nearest word within one edit in three letters, and nothing past that', () => {
    const options = ['candidate', 'filter', 'profile', 'report-dir', 'step-timeout'];
    expect(nearest('canddiate', options)).toBe('candidate');
    expect(nearest('CANDIDATE', options)).toBe('candidate');
    expect(nearest('report_dri', options)).toBe('report-dir');
    expect(nearest('flter', options)).toBe('filter');
    expect(nearest('verbose', options)).toBeUndefined();
    expect(nearest('x', ['xy', 'x'])).toBe('x');
    expect(nearest('ab', [])).toBeUndefined();
  });

  it('writes the suggestion as the tail of a message, or nothing', () => {
    expect(didYouMean('canddiate', ['candidate'], '--')).toBe('; did you mean --candidate?');
    expect(didYouMean('mcp-prox', ['mcp-proxy', 'mcp-hub'])).toBe('; did you mean mcp-proxy?');
    expect(didYouMean('elsewhere', ['mcp-proxy'])).toBe('');
  });
});
