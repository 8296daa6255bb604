import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { naiveToken } from './naive-token.js';

/**
 * The passthrough candidate's process: it starts the server named after `--` and copies bytes
 * both ways, unchanged and unchecked; or, given `--url`, it posts each line to that URL and
 * copies each answer back. It exists to prove that scenarios can fail.
 */
function main(argv: string[]): void {
  if (argv[0] === '--url' && argv[1] !== undefined) {
    const option = (name: string) => {
      const at = argv.indexOf(name, 2);
      return at < 0 ? undefined : argv[at + 1];
    };
    const tokens = option('--tokens');
    proxyToUrl(argv[1], tokens === undefined ? {} : (JSON.parse(tokens) as Record<string, string>), option('--token'));
    return;
  }
  const separator = argv.indexOf('--');
  const [command, ...args] = separator >= 0 ? argv.slice(separator + 1) : [];
  if (!command) {
    process.stderr.write('usage: passthrough-proxy (-- COMMAND [ARG ...] | --url URL)\n');
    process.exit(2);
  }
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  process.stdin.pipe(server.stdin);
  server.stdout.pipe(process.stdout);
  server.stdin.on('error', () => undefined);
  server.on('exit', (code) => process.exit(code ?? 1));
  server.on('error', () => process.exit(1));
}

/**
 * As naive as an HTTP client gets: whatever the scheme but https, it dials the host and port as
 * plain HTTP; it follows every redirect; it reads every body whole; it sends a bearer token as
 * naiveToken picks one. A request it could not get an answer to is answered with a JSON-RPC
 * error, so the agent is never left waiting.
 */
function proxyToUrl(target: string, tokens: Record<string, string>, configured: string | undefined): void {
  const url = new URL(target);
  const bearer = naiveToken(url.hostname, tokens, configured);
  if (url.protocol !== 'https:') url.protocol = 'http:';
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    };
    void fetch(url, { method: 'POST', headers, body: line })
      .then(async (response) => {
        const body = (await response.text()).trim();
        if (body !== '' && response.ok) process.stdout.write(`${body}\n`);
        else if (!response.ok) answerFailure(line, `HTTP ${response.status}`);
      })
      .catch((error: Error) => answerFailure(line, error.message));
  });
  lines.on('close', () => process.exit(0));
}

function answerFailure(line: string, problem: string): void {
  let id: unknown;
  try {
    id = (JSON.parse(line) as { id?: unknown }).id;
  } catch {
    return;
  }
  if (id !== undefined) process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: problem } })}\n`);
}

main(process.argv.slice(2));
