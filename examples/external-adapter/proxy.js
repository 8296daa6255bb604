#!/usr/bin/env node
// The "broker" under test: a plain stdio proxy that starts the server named after `--` and copies
// bytes both ways. It protects nothing; put your own broker's command line in adapter.js instead.
import { spawn } from 'node:child_process';

const separator = process.argv.indexOf('--');
const [command, ...args] = separator < 0 ? [] : process.argv.slice(separator + 1);
if (command === undefined) {
  process.stderr.write('usage: proxy.js -- COMMAND [ARG ...]\n');
  process.exit(2);
}
const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
server.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
