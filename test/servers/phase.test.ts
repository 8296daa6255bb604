import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlFileError, readPhase } from '../../servers/kit/phase.js';

describe('readPhase', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-phase-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is review with no control file given or none on disk', () => {
    expect(readPhase(null)).toBe('review');
    expect(readPhase(join(dir, 'absent'))).toBe('review');
  });

  it('reads the trimmed contents afresh each time', () => {
    const control = join(dir, 'phase');
    writeFileSync(control, 'run\n');
    expect(readPhase(control)).toBe('run');
    writeFileSync(control, '  review \r\n');
    expect(readPhase(control)).toBe('review');
  });

  it.each(['', 'RUN', 'running', 'review run'])('refuses %j', (contents) => {
    const control = join(dir, 'phase');
    writeFileSync(control, contents);
    expect(() => readPhase(control)).toThrow(ControlFileError);
  });

  it('refuses a control path it cannot read', () => {
    expect(() => readPhase(dir)).toThrow(ControlFileError);
  });
});
