import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { passthroughCandidate } from '../../harness/candidates/passthrough.js';
import { loadCandidate } from '../../harness/candidates/registry.js';
import type { Candidate } from '../../harness/candidates/types.js';
import { packageRoot } from '../../harness/paths.js';
import { NOT_RUN, UNRESPONSIVE_AFTER } from '../../harness/run/budget.js';
import { runPool } from '../../harness/run/pool.js';
import { runsAlone } from '../../harness/run/alone.js';
import { runSuite } from '../../harness/run/suite.js';
import { renderMarkdown } from '../../harness/report/markdown.js';
import type { Report } from '../../harness/report/summary.js';

const catalogue = loadCatalogue();
const neverAnswers = join(packageRoot, 'test', 'fixtures', 'adapters', 'broker-never-answers.py');

/** A promise settled from outside, so a test decides when each piece of work ends. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every promise callback already queued run. */
const drained = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the worker pool', () => {
  it('keeps at most `jobs` in flight, takes items in order, and gives results in the items\' order', async () => {
    const gates = Array.from({ length: 5 }, () => deferred<string>());
    const started: number[] = [];
    const pool = runPool(gates, 2, (gate, index) => {
      started.push(index);
      return gate.promise;
    });
    await drained();
    expect(started).toEqual([0, 1]);
    // The second finishes first: its worker takes the next item; the report order does not change.
    gates[1]!.resolve('b');
    await drained();
    expect(started).toEqual([0, 1, 2]);
    gates[2]!.resolve('c');
    gates[0]!.resolve('a');
    await drained();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    gates[4]!.resolve('e');
    gates[3]!.resolve('d');
    expect(await pool).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('stops handing out work after a failure, and rejects only once the work in flight has settled', async () => {
    const gates = Array.from({ length: 4 }, () => deferred<number>());
    const started: number[] = [];
    let settled = false;
    const pool = runPool(gates, 2, (gate, index) => {
      started.push(index);
      return gate.promise;
    }).finally(() => {
      settled = true;
    });
    pool.catch(() => undefined);
    await drained();
    gates[0]!.reject(new Error('broken'));
    await drained();
    expect(settled).toBe(false);
    gates[1]!.resolve(1);
    await expect(pool).rejects.toThrow('broken');
    expect(started).toEqual([0, 1]);
  });

  it('runs an item marked alone with nothing else in flight, and nothing starts beside it; those after all the others', async () => {
    const items = ['a', 'b', 'SOLO', 'c', 'd', 'SOLO2', 'e', 'f'];
    const inFlight = new Set<string>();
    const seen: Array<{ item: string; beside: string[] }> = [];
    const results = await runPool(
      items,
      3,
      async (item) => {
        inFlight.add(item);
        seen.push({ item, beside: [...inFlight].filter((other) => other !== item) });
        // Several turns of the event loop, so that the others in flight overlap it if they can.
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        inFlight.delete(item);
        return item.toLowerCase();
      },
      (item) => item.startsWith('SOLO'),
    );
    expect(results).toEqual(items.map((item) => item.toLowerCase()));
    for (const { item, beside } of seen) {
      if (item.startsWith('SOLO')) expect(beside, item).toEqual([]);
      else expect(beside.filter((other) => other.startsWith('SOLO')), item).toEqual([]);
    }
    // The others did overlap: the rule holds only what must be held.
    expect(seen.some(({ beside }) => beside.length > 0)).toBe(true);
    // Handed out after all the others, so the workers drain once for them, not before each.
    const started = seen.map(({ item }) => item);
    expect(started.slice(0, 6)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(started.slice(6).sort()).toEqual(['SOLO', 'SOLO2']);
  });

  it('marks alone exactly the scenarios whose verdicts measure time or memory', () => {
    const alone = loadCatalogue().filter(runsAlone).map((s) => s.id);
    expect(alone).toEqual(expect.arrayContaining(['res.memory-flood', 'flt.server-stops-reading', 'flt.list-changed-flood']));
    expect(alone).not.toContain('res.result-at-cap');
  });

  it('refuses a number of jobs that is not a positive whole number', async () => {
    await expect(runPool([1], 0, async (n) => n)).rejects.toThrow(RangeError);
    await expect(runPool([1], 1.5, async (n) => n)).rejects.toThrow(RangeError);
  });
});

/** What a case's verdict is made of, timings and transcripts aside. */
const verdicts = (report: Report) =>
  report.cases.map((c) => ({ id: c.id, outcome: c.outcome, failure: c.failure, control_outcome: c.control_outcome, checks: c.findings.map((f) => `${f.step} ${f.check}`).sort(), reason: c.reason }));

describe('a parallel run', () => {
  // Attacks and their controls, so the comparison covers failures with findings and passes.
  const subset = catalogue.filter((s) => s.id.startsWith('res.')).slice(0, 4);
  let one: Report;
  let four: Report;
  beforeAll(async () => {
    one = await runSuite(passthroughCandidate(), subset, { stepTimeoutMs: 10_000, jobs: 1 });
    four = await runSuite(passthroughCandidate(), subset, { stepTimeoutMs: 10_000, jobs: 4 });
  }, 120_000);

  it('gives the same verdicts, findings and order with four jobs as with one', () => {
    expect(verdicts(four)).toEqual(verdicts(one));
    expect(four.cases.map((c) => c.id)).toEqual(subset.map((s) => s.id));
    expect(new Set(one.cases.map((c) => c.outcome))).toEqual(new Set(['pass', 'fail']));
    expect(four.summary).toEqual(one.summary);
  });

  it('says what the run cost: wall time, scenario time added up, the slowest cases', () => {
    const timing = four.timing!;
    expect(timing.jobs).toBe(4);
    expect(timing.scenario_ms).toBe(four.cases.reduce((sum, c) => sum + c.duration_ms, 0));
    expect(timing.wall_ms).toBeGreaterThan(0);
    expect(timing.slowest.map((c) => c.duration_ms)).toEqual([...four.cases.map((c) => c.duration_ms)].sort((a, b) => b - a));
    expect(renderMarkdown(four)).toContain(`Time: ${(timing.wall_ms / 1000).toFixed(1)} s wall with 4 job(s)`);
  });
});

describe('budgets against a candidate that never answers', () => {
  const withCandidate = async (work: (candidate: Candidate) => Promise<Report>): Promise<Report> => {
    const candidate = await loadCandidate(neverAnswers);
    try {
      return await work(candidate);
    } finally {
      await candidate.dispose?.();
    }
  };
  const stdioOnly = catalogue.filter((s) => s.agent === undefined && s.server.transport !== 'http' && s.servers === undefined);

  it('after scenarios in a row it answered nothing in, the rest are errors naming why, never passes', async () => {
    const selected = stdioOnly.slice(0, UNRESPONSIVE_AFTER + 4);
    const report = await withCandidate((candidate) => runSuite(candidate, selected, { stepTimeoutMs: 400, jobs: 4 }));
    expect(report.cases.map((c) => c.id)).toEqual(selected.map((s) => s.id));
    expect(report.cases.filter((c) => c.outcome === 'pass').map((c) => c.id)).toEqual([]);
    const notRun = report.cases.filter((c) => c.reason?.startsWith(NOT_RUN));
    expect(notRun.length).toBeGreaterThanOrEqual(1);
    for (const c of notRun) {
      expect(c.outcome).toBe('error');
      expect(c.reason).toMatch(/answered nothing in \d+ scenarios in a row .* taken to be unresponsive/);
    }
  }, 60_000);

  it('a scenario past its budget is an error naming the budget, cut short well before its steps would time out', async () => {
    const [scenario] = stdioOnly;
    const report = await withCandidate((candidate) => runSuite(candidate, [scenario!], { stepTimeoutMs: 20_000, scenarioBudgetMs: 500 }));
    const [result] = report.cases;
    expect(result!.outcome).toBe('error');
    expect(result!.reason).toBe('the scenario budget of 500 ms was spent (--scenario-budget)');
    expect(result!.duration_ms).toBeLessThan(10_000);
  }, 30_000);

  it('once the run budget is spent, the scenario running and every one left are errors naming it', async () => {
    const selected = stdioOnly.slice(0, 3);
    const report = await withCandidate((candidate) => runSuite(candidate, selected, { stepTimeoutMs: 20_000, runBudgetMs: 500, jobs: 1 }));
    expect(report.cases.map((c) => [c.outcome, c.reason])).toEqual([
      ['error', 'the run budget of 500 ms was spent before this scenario finished (--run-budget)'],
      ['error', `${NOT_RUN}: the run budget of 500 ms was spent before this scenario started (--run-budget)`],
      ['error', `${NOT_RUN}: the run budget of 500 ms was spent before this scenario started (--run-budget)`],
    ]);
    expect(report.timing!.wall_ms).toBeLessThan(10_000);
  }, 30_000);
});

describe('the command line', () => {
  const gauntlet = (...args: string[]) => promisify(execFile)(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), 'run', '--filter', 'res.*', ...args]);

  it.each([
    [['--jobs', '0'], /--jobs takes a whole number from 1 to 64/],
    [['--run-budget', '1.5'], /--run-budget takes a positive whole number of milliseconds/],
    // Past 2^31 - 1 ms a Node timer fires after 1 ms: a budget that large would end every scenario at once.
    [['--scenario-budget', '3000000000'], /--scenario-budget takes a positive whole number of milliseconds from 1 to 2147483647/],
  ])('refuses %j before anything runs (exit 2)', async (args, message) => {
    const failed = await gauntlet(...args).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(message);
  });
});
