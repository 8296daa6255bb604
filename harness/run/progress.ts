import type { CaseResult } from './outcome.js';

export interface ProgressOptions {
  write: (text: string) => void;
  now?: () => number;
  /** How often the line is redrawn, so the running case's time moves; 0 draws only on events. */
  refreshMs?: number;
  /** The terminal's width: a line that wrapped could not be redrawn in place. */
  columns?: () => number | undefined;
}

/**
 * One line on a terminal, redrawn in place: scenarios done of total, failures so far, and the case
 * running longest now with its time, and how many others are running (`--jobs`). Other text goes above it through `log`. Only for a terminal:
 * a log file gets the plain per-case lines instead.
 */
export class ProgressLine {
  private readonly running = new Map<string, number>();
  private done = 0;
  private failing = 0;
  private total = 0;
  private stopped = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly write: (text: string) => void;
  private readonly now: () => number;
  private readonly columns: () => number | undefined;

  constructor(options: ProgressOptions) {
    this.write = options.write;
    this.now = options.now ?? Date.now;
    this.columns = options.columns ?? (() => undefined);
    const refreshMs = options.refreshMs ?? 250;
    // A display refresh, not a trigger of anything; unref'd so it never holds the process open.
    this.timer = refreshMs > 0 ? setInterval(() => this.draw(), refreshMs).unref() : undefined;
  }

  start(id: string, total: number): void {
    this.total = total;
    this.running.set(id, this.now());
    this.draw();
  }

  finish(result: CaseResult): void {
    this.running.delete(result.id);
    this.done += 1;
    if (result.outcome === 'fail' || result.outcome === 'error') this.failing += 1;
    this.draw();
  }

  /** Writes a line above the progress line, or after it is stopped, just the line. */
  log(line: string): void {
    this.write(`\r\u001b[K${line}\n`);
    this.draw();
  }

  /** The line as it is now, without the terminal's control codes. */
  render(): string {
    const parts = [`${this.done}/${this.total} done`, `${this.failing} failing`];
    const longest = [...this.running.entries()].sort((a, b) => a[1] - b[1])[0];
    // With several jobs, the one to watch is the case running longest; the others are counted.
    const others = this.running.size - 1;
    if (longest !== undefined) parts.push(`running ${longest[0]} ${((this.now() - longest[1]) / 1000).toFixed(1)}s${others > 0 ? ` and ${others} more` : ''}`);
    return parts.join(' · ');
  }

  private draw(): void {
    if (this.stopped) return;
    const width = this.columns();
    const line = this.render();
    this.write(`\r\u001b[K${width === undefined || width < 2 ? line : line.slice(0, width - 1)}`);
  }

  /** Clears the line and stops redrawing it. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.stopped = true;
    this.write('\r\u001b[K');
  }
}

/**
 * The line each finished case gets in the log, `[done/total] outcome id (why)`, numbered in the
 * order cases finish: with several jobs they finish out of catalogue order, and numbered by their
 * place in it a log read `[79/393]` after `[366/393]`, a count that seemed to go back.
 */
export class CaseLines {
  private finished = 0;

  /** The line of the next case to finish, counted whether or not it is shown. */
  next(result: CaseResult, total: number): string {
    this.finished += 1;
    const why = result.outcome === 'pass' ? '' : ` (${result.findings.length > 0 ? result.findings.map((f) => f.check).join(', ') : result.reason})`;
    const outcome = result.failure === undefined ? result.outcome : `${result.outcome}: ${result.failure}`;
    return `[${this.finished}/${total}] ${outcome.padEnd(5)} ${result.id}${why}`;
  }
}
