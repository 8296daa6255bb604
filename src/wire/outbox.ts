// Lines for one peer, written together: whatever is sent within one run of the broker's code (an
// event's handler and the promise reactions it sets off) leaves in one write at its end, rather
// than one write per line. A burst of answers to the agent, or of calls to the server, read in one
// chunk then costs one system call and one wake-up of the peer, not one each; and a lone call's
// line leaves as soon as that run ends, without waiting for another turn of the event loop (a
// setImmediate here cost a loop iteration, and an epoll_pwait, per line).
// `beforeWrite` runs first every time: the agent's flushes the audit trail, so the trail holds the
// record of a decision before anything that follows from it leaves.

export class Outbox {
  private lines: string[] = [];
  private held = 0;
  private scheduled = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly beforeWrite: () => void = () => undefined,
    /** When `beforeWrite` throws: the lines held are dropped, none of them written. */
    private readonly onFailure: (err: unknown) => void = () => undefined,
  ) {}

  /** The bytes (UTF-16 units, a bound's measure) of the lines held for the next write. */
  heldLength(): number {
    return this.held;
  }

  push(line: string): void {
    this.lines.push(line);
    this.held += line.length + 1;
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(this.flushScheduled);
  }

  /** The scheduled write; a flush in between took its lines, and then it writes nothing. */
  private readonly flushScheduled = (): void => {
    if (this.scheduled) this.flush();
  };

  /** Writes what is held now; also called once the session ends, so nothing is left behind. */
  flush(): void {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const lines = this.lines;
    this.lines = [];
    this.held = 0;
    try {
      this.beforeWrite();
    } catch (err) {
      this.onFailure(err);
      return;
    }
    this.write(`${lines.join('\n')}\n`);
  }
}
