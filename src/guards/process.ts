// Guards on how the server process is started. The server is third-party code: it must be
// possible to stop it and everything it started, and it must not outlive the broker.

import { existsSync } from 'node:fs';
import type { ProcessGuard } from './types.js';

export const ownProcessGroup: ProcessGuard = {
  name: 'own-process-group',
  // A group of its own lets the broker signal every descendant at once, and keeps the signals
  // aimed at the broker's group (a terminal's, a supervisor's) from deciding the server's fate.
  launch: (plan) => ({ ...plan, ownGroup: true }),
};

/**
 * setpriv (util-linux) sets the parent-death signal and then execs the server, so the server
 * keeps its pid and is killed by the kernel when the broker dies, even by SIGKILL, when no
 * handler of the broker's can run. Node cannot call prctl itself. Looked up at fixed paths only:
 * the operator's PATH is not trusted to name the program that protects the broker.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/** The guard for a machine with setpriv at `setpriv`, or without it (undefined). */
export function parentDeathSignalThrough(setpriv: string | undefined): ProcessGuard {
  return {
    name: 'parent-death-signal',
    // Without setpriv (not Linux, or no util-linux) the server is started as it is: the broker
    // then still kills it on every exit it lives through, but not when it is killed outright.
    launch: (plan) => (setpriv === undefined ? plan : { ...plan, command: setpriv, args: ['--pdeathsig', 'KILL', '--', plan.command, ...plan.args] }),
  };
}

export const parentDeathSignal = parentDeathSignalThrough(SETPRIV);

export const groupDiesWithBroker: ProcessGuard = {
  name: 'group-dies-with-broker',
  // The parent-death signal reaches the server alone: a child it started is reparented and lives
  // on. A watcher holding the read end of a pipe only the broker writes to sees it close however
  // the broker ends, SIGKILL included, and kills the whole group (upstream/watcher.ts).
  launch: (plan) => ({ ...plan, watchGroup: true }),
};
