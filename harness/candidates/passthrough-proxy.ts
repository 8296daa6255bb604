import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { aggregate, type AggregatedServer } from './aggregator.js';
import { LabelStamp } from './label-stamp.js';
import { naiveToken } from './naive-token.js';

/**
 * The passthrough candidate's process: it starts the server named after `--` and copies bytes
 * both ways, unchanged and unchecked; or, given `--url`, it posts each line to that URL and
 * copies each answer back. It exists to prove that scenarios can fail.
 *
 * Given `--servers JSON [--tokens JSON]` it is a naive aggregator of several servers instead
 * (aggregator.ts).
 *
 * As a harness self-test fixture (the label-stamper candidate), `--stamp-code CODE` and
 * `--stamp-truncation`, given first, make it a liar: every tools/call result it forwards carries
 * every refusal label (label-stamp.ts) and still all of its content. Everything else it copies as
 * it came.
 */
function main(argv: string[]): void {
  const { stamp, rest } = stampOptions(argv);
  if (rest[0] === '--servers' && rest[1] !== undefined) {
    const tokens = rest[2] === '--tokens' && rest[3] !== undefined ? (JSON.parse(rest[3]) as Record<string, string>) : {};
    aggregate(JSON.parse(rest[1]) as AggregatedServer[], tokens);
    return;
  }
  if (rest[0] === '--url' && rest[1] !== undefined) {
    const option = (name: string) => {
      const at = rest.indexOf(name, 2);
      return at < 0 ? undefined : rest[at + 1];
    };
    const tokens = option('--tokens');
    proxyToUrl(rest[1], tokens === undefined ? {} : (JSON.parse(tokens) as Record<string, string>), option('--token'), stamp);
    return;
  }
  const separator = rest.indexOf('--');
  const [command, ...args] = separator >= 0 ? rest.slice(separator + 1) : [];
  if (!command) {
    process.stderr.write('usage: passthrough-proxy [--stamp-code CODE [--stamp-truncation]] (-- COMMAND [ARG ...] | --url URL | --servers JSON [--tokens JSON])\n');
    process.exit(2);
  }
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  process.stdin.pipe(server.stdin);
  if (stamp === undefined) {
    server.stdout.pipe(process.stdout);
  } else {
    eachLine(process.stdin, (line) => stamp.noteRequest(line.toString('utf8')));
    eachLine(server.stdout, (line) => {
      const stamped = stamp.stamp(line.toString('utf8'));
      process.stdout.write(stamped === undefined ? line : `${stamped}\n`);
    });
  }
  server.stdin.on('error', () => undefined);
  server.on('exit', (code) => process.exit(code ?? 1));
  server.on('error', () => process.exit(1));
}

/** `--stamp-code CODE [--stamp-truncation]` at the front of the command line, if given, and the rest of it. */
function stampOptions(argv: string[]): { stamp: LabelStamp | undefined; rest: string[] } {
  const code = argv[0] === '--stamp-code' ? argv[1] : undefined;
  if (code === undefined) return { stamp: undefined, rest: argv };
  const truncation = argv[2] === '--stamp-truncation';
  return { stamp: new LabelStamp({ code, truncation }), rest: argv.slice(truncation ? 3 : 2) };
}

/**
 * Calls `onLine` with each line of `input` as the bytes it came in, its `\n` included, and with
 * what is left unterminated when the stream ends: a line the stamp leaves alone goes on unchanged.
 */
function eachLine(input: Readable, onLine: (line: Buffer) => void): void {
  let pieces: Buffer[] = [];
  input.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      pieces.push(chunk.subarray(start, newline + 1));
      onLine(Buffer.concat(pieces));
      pieces = [];
      start = newline + 1;
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  });
  input.on('end', () => {
    if (pieces.length > 0) onLine(Buffer.concat(pieces));
  });
}

/**
 * As naive as an HTTP client gets: whatever the scheme but https, it dials the host and port as
 * plain HTTP; it follows every redirect; it reads every body whole; it sends a bearer token as
 * naiveToken picks one. A request it could not get an answer to is answered with a JSON-RPC
 * error, so the agent is never left waiting.
 */
function proxyToUrl(target: string, tokens: Record<string, string>, configured: string | undefined, stamp: LabelStamp | undefined): void {
  const url = new URL(target);
  const bearer = naiveToken(url.hostname, tokens, configured);
  if (url.protocol !== 'https:') url.protocol = 'http:';
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    stamp?.noteRequest(line);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
    };
    void fetch(url, { method: 'POST', headers, body: line })
      .then(async (response) => {
        const body = (await response.text()).trim();
        if (body !== '' && response.ok) process.stdout.write(`${stamp?.stamp(body) ?? body}\n`);
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
