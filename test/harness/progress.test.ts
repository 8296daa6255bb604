import { describe, expect, it } from 'vitest';
import { CaseLines, ProgressLine } from '../../harness/run/progress.js';
import { judgedCase } from './case-fixture.js';

describe('the progress line', () => {
  it('shows done of total, failures so far and the case running longest, redrawn in place', () => {
    let now = 1_000;
    const written: string[] = [];
    const progress = new ProgressLine({ write: (text) => written.push(text), now: () => now, refreshMs: 0 });
    progress.start('a.first', 3);
    now += 2_500;
    expect(progress.render()).toBe('0/3 done · 0 failing · running a.first 2.5s');
    progress.finish(judgedCase('a.first', 'fail', { checks: ['call.answer_excludes'] }));
    progress.start('a.second', 3);
    now += 400;
    expect(progress.render()).toBe('1/3 done · 1 failing · running a.second 0.4s');
    progress.log('[1/3] fail a.first');
    progress.finish(judgedCase('a.second', 'pass'));
    expect(progress.render()).toBe('2/3 done · 1 failing');
    progress.stop();
    expect(written.every((text) => text.startsWith('\r\u001b[K'))).toBe(true);
    expect(written).toContain('\r\u001b[K[1/3] fail a.first\n');
    expect(written.at(-1)).toBe('\r\u001b[K');
    progress.log('summary');
    expect(written.at(-1)).toBe('\r\u001b[Ksummary\n');
  });

  it('with several cases running, names the one running longest and counts the others, in whatever order they finish', () => {
    let now = 0;
    const progress = new ProgressLine({ write: () => undefined, now: () => now, refreshMs: 0 });
    progress.start('a.first', 3);
    now += 1_000;
    progress.start('a.second', 3);
    progress.start('a.third', 3);
    now += 500;
    expect(progress.render()).toBe('0/3 done · 0 failing · running a.first 1.5s and 2 more');
    progress.finish(judgedCase('a.first', 'pass'));
    expect(progress.render()).toBe('1/3 done · 0 failing · running a.second 0.5s and 1 more');
    progress.finish(judgedCase('a.third', 'fail', { checks: ['call.answer_excludes'] }));
    expect(progress.render()).toBe('2/3 done · 1 failing · running a.second 0.5s');
    progress.stop();
  });

  it('keeps to the terminal\'s width, so that it can be redrawn in place', () => {
    const written: string[] = [];
    const progress = new ProgressLine({ write: (text) => written.push(text), now: () => 0, refreshMs: 0, columns: () => 12 });
    progress.start('a.scenario-with-a-long-name', 300);
    expect(written.at(-1)).toBe('\r\u001b[K0/300 done ');
    progress.stop();
  });
});

describe('the log\'s line for each finished case', () => {
  it('is numbered in the order cases finish, whatever their places in the catalogue', () => {
    const lines = new CaseLines();
    // Finished as several jobs finish them: the catalogue's 80th after its 367th.
    expect(lines.next(judgedCase('z.late', 'pass'), 393)).toBe('[1/393] pass  z.late');
    expect(lines.next(judgedCase('a.early', 'fail', { checks: ['call.answer_excludes', 'ledger.calls'] }), 393)).toBe('[2/393] fail: exposed a.early (call.answer_excludes, ledger.calls)');
    expect(lines.next(judgedCase('m.broken', 'error'), 393)).toBe('[3/393] error m.broken (the broker died)');
  });
});
