// No server process group may outlive the broker, however the broker ends: a clean exit, an
// uncaught error, or a signal. Every started group is tracked here until it has been closed.

const live = new Map<number, () => Promise<void>>();
let installed = false;

/** Registers a process group (by its leader's pid) and how to close it gracefully. */
export function track(pgid: number, close: () => Promise<void>): void {
  install();
  live.set(pgid, close);
}

export function untrack(pgid: number): void {
  live.delete(pgid);
}

/** Sends `signal` to the whole group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: nothing left in the group
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  // 'exit' handlers must be synchronous, so there is no grace period left: kill outright.
  process.on('exit', () => {
    for (const pgid of live.keys()) signalGroup(pgid, 'SIGKILL');
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
      void Promise.allSettled([...live.values()].map((close) => close())).then(() => process.exit(128 + number));
    });
  }
}
