#!/usr/bin/env node
// The broker's program: its command line (src/commands/command-line.ts) on the process's own
// streams, then an exit that lets the last answers reach a slow agent.

import { runCommandLine } from './commands/command-line.js';

/** How long answers already written to a slow agent may take to flush before the broker exits. */
const FLUSH_MS = 2000;

// Writes to a pipe can still be queued; exiting at once would drop the last answers.
function exit(code: number): void {
  process.exitCode = code; // also the code if the process ends on its own before either fires
  setTimeout(() => process.exit(code), FLUSH_MS).unref();
  process.stdout.write('', () => process.exit(code));
}

void runCommandLine(process.argv.slice(2), { input: process.stdin, output: process.stdout, errors: process.stderr }).then(exit);
