import { spawn } from 'node:child_process';

/**
 * The passthrough candidate's process: it starts the server named after `--` and copies bytes
 * both ways, unchanged and unchecked. It exists to prove that scenarios can fail.
 */
function main(argv: string[]): void {
  const separator = argv.indexOf('--');
  const [command, ...args] = separator >= 0 ? argv.slice(separator + 1) : [];
  if (!command) {
    process.stderr.write('usage: passthrough-proxy -- COMMAND [ARG ...]\n');
    process.exit(2);
  }
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  process.stdin.pipe(server.stdin);
  server.stdout.pipe(process.stdout);
  server.stdin.on('error', () => undefined);
  server.on('exit', (code) => process.exit(code ?? 1));
  server.on('error', () => process.exit(1));
}

main(process.argv.slice(2));
