// No server may outlive the broker, however the broker ends: a clean exit, an uncaught error, or
// a signal. Every started server is tracked here until it has been closed. (Being killed outright
// runs none of this: that is the parent-death-signal guard's case.)

/** Sends a signal to a server (its whole group, when it has one); false when nothing is left. */
export type Signaller = (signal: NodeJS.Signals | 0) => boolean;

interface Tracked {
  readonly close: () => Promise<void>;
  readonly signal: Signaller;
}

/** What the reaper needs of the process it guards: the broker's own, or a test's stand-in. */
export interface Host {
  on(event: 'exit' | 'SIGTERM' | 'SIGINT' | 'SIGHUP', listener: () => void): unknown;
  exit(code: number): void;
}

/** The signals that end the broker gracefully, each with its number (the exit code is 128 + it). */
const ENDING = [
  ['SIGTERM', 15],
  ['SIGINT', 2],
  ['SIGHUP', 1],
] as const;

export class Reaper {
  private readonly live = new Map<number, Tracked>();
  private installed = false;

  constructor(private readonly host: Host) {}

  /** Registers a server by its pid, with how to close it gracefully and how to signal it. */
  track(pid: number, close: () => Promise<void>, signal: Signaller): void {
    // Installed at the first server: a broker that starts none keeps the default handlers.
    this.install();
    this.live.set(pid, { close, signal });
  }

  untrack(pid: number): void {
    this.live.delete(pid);
  }

  /** Closes every tracked server gracefully; settles once each close has, however it ended. */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.live.values()].map(({ close }) => close()));
  }

  private install(): void {
    if (this.installed) return;
    this.installed = true;
    // 'exit' handlers must be synchronous, so there is no grace period left: kill outright.
    this.host.on('exit', () => {
      for (const { signal } of this.live.values()) signal('SIGKILL');
    });
    let stopping = false;
    for (const [signal, number] of ENDING) {
      this.host.on(signal, () => {
        // A second signal while the groups are being closed gracefully cuts the grace short; the
        // 'exit' handler then kills what is left.
        if (stopping) return this.host.exit(128 + number);
        stopping = true;
        void this.closeAll().then(() => this.host.exit(128 + number));
      });
    }
  }
}

/** The broker's own: every server it starts is tracked here. */
export const reaper = new Reaper(process);

/** Sends `signal` to the whole group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  return signalPid(-pgid, signal);
}

/** Sends `signal` to the one process; false when it no longer exists. */
export function signalProcess(pid: number, signal: NodeJS.Signals | 0): boolean {
  return signalPid(pid, signal);
}

function signalPid(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing left to signal
  }
}
