// A process that kills a server's whole process group when the broker dies, however it dies.
// Nothing the broker does at its own end runs when it is killed outright, and the kernel's
// parent-death signal reaches only the server: the children the server started are reparented
// and live on. The watcher reads a pipe whose write end only the broker holds (Node opens every
// descriptor close-on-exec, so no server inherits it); the kernel closes that end when the broker
// dies, the read returns, and the watcher kills the group.

import { spawn, type ChildProcess } from 'node:child_process';

/**
 * At a fixed path, as setpriv is: the operator's PATH is not trusted to name a program that
 * protects the broker. `read` returns at end of input; `kill` then reaches every process left in
 * the group the server led.
 */
const SHELL = '/bin/sh';
const SCRIPT = 'read -r _; kill -s KILL -- "-$1" 2>/dev/null';

export class GroupWatcher {
  private constructor(private readonly child: ChildProcess) {}

  /**
   * Watches the group `pgid`. Without /bin/sh nothing is watched, and a server's children outlive
   * a broker killed outright, as they would without this guard.
   */
  static start(pgid: number): GroupWatcher {
    const child = spawn(SHELL, ['-c', SCRIPT, 'gauntlet-group-watcher', String(pgid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // A session of its own: a signal aimed at the broker's group (a terminal's Ctrl-C) must not
      // end the watcher before the broker has had its chance to close the group itself.
      detached: true,
    });
    child.once('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    // Neither the watcher nor its pipe keeps the broker running.
    child.unref();
    (child.stdin as { unref?: () => void } | null)?.unref?.();
    return new GroupWatcher(child);
  }

  /**
   * Ends the watcher without its firing, once the group is gone: later the server's pid, and so
   * the group's id, may be reused by an unrelated process.
   */
  dismiss(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
