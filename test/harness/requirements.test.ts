import { describe, expect, it } from 'vitest';
import { loadRequirements, parseRequirements } from '../../harness/requirements.js';

describe('requirements catalogue', () => {
  it('parses rows under their area', () => {
    const parsed = parseRequirements('## Pinning (PIN)\n\n| id | level | seed | requirement |\n|---|---|---|---|\n| PIN-1 | MUST | a.txt | Pins things. |\n');
    expect(parsed).toEqual([{ id: 'PIN-1', level: 'MUST', seed: 'a.txt', text: 'Pins things.', area: 'Pinning (PIN)' }]);
  });

  it('refuses an id listed twice', () => {
    const row = '| PIN-1 | MUST | a.txt | Pins things. |\n';
    expect(() => parseRequirements(row + row)).toThrow(/PIN-1 is listed twice/);
  });

  it('holds every requirement the foundation scenarios cite', () => {
    const ids = new Set(loadRequirements().map((r) => r.id));
    const foundation = ['CLS-1', 'CLS-2', 'CLS-3', 'PIN-1', 'PIN-2', 'PIN-3', 'PIN-4', 'PIN-5', 'PIN-6', 'PIN-7', 'LST-1', 'LST-2', 'LST-3', 'LST-4', 'HNT-1', 'HNT-2', 'HNT-3', 'HNT-4', 'DSC-1'];
    for (const id of foundation) expect(ids.has(id), id).toBe(true);
    expect(ids.size).toBeGreaterThan(80);
  });
});
