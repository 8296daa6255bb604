// No server may outlive the broker, however the broker ends: a clean exit, an uncaught error, or
// a signal. Every started server is tracked here until it has been closed. (Being killed outright
// runs none of this: that is the parent-death-signal guard's case.)

/** Sends a signal to a server (its whole group, when it has one); false when nothing is left. */
export type Signaller = (signal: NodeJS.Signals | 0) => boolean;

interface Tracked {
  readonly close: () => Promise<void>;
  readonly signal: Signaller;
}

const live = new Map<number, Tracked>();
let installed = false;

/** Registers a server by its pid, with how to close it gracefully and how to signal it. */
export function track(pid: number, close: () => Promise<void>, signal: Signaller): void {
  install();
  live.set(pid, { close, signal });
}

export function untrack(pid: number): void {
  live.delete(pid);
}

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

function install(): void {
  if (installed) return;
  installed = true;
  // 'exit' handlers must be synchronous, so there is no grace period left: kill outright.
  process.on('exit', () => {
    for (const { signal } of live.values()) signal('SIGKILL');
  });
  let stopping = false;
  for (const [signal, number] of [
    ['SIGTERM', 15],
    ['SIGINT', 2],
    ['SIGHUP', 1],
  ] as const) {
    process.on(signal, () => {
      // A second signal while the groups are being closed gracefully cuts the grace short; the
      // 'exit' handler then kills what is left.
      if (stopping) process.exit(128 + number);
      stopping = true;
      void Promise.allSettled([...live.values()].map(({ close }) => close())).then(() => process.exit(128 + number));
    });
  }
}
