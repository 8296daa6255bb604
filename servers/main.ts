/**
 * Entry point of a hostile server:
 *   node dist/servers/main.js <server-id> [--ledger FILE] [--control FILE] [--as NAME] [--http [--listen ADDRESS]...] [knob=value ...]
 * With --http it listens on 127.0.0.1, or on each ADDRESS, (one port of its own, written to the ledger) instead of stdio.
 * The harness CLI runs the same thing as `gauntlet serve` through `runServer`.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { catalogue, findServer } from './catalogue.js';
import { KnobError, type Knobs, parseAssignments, refuseUnlistened, resolveKnobs } from './kit/knobs.js';
import { type ExitReason, Ledger } from './kit/ledger.js';
import { ownProcessIds } from './kit/process-ids.js';
import { serveHttp } from './kit/http.js';
import { serve, type StopReason } from './kit/server.js';
import { DEFAULT_LIMITS } from './kit/wire.js';

const USAGE = '<server-id> [--ledger FILE] [--control FILE] [--as NAME] [--http [--listen ADDRESS]...] [knob=value ...]';

export class UsageError extends Error {}

export interface Invocation {
  serverId: string;
  ledgerPath: string | null;
  controlPath: string | null;
  /** The name the scenario gives this server among several; its launch record carries it. */
  as: string | null;
  /** Serve MCP's Streamable HTTP rather than stdio, listening on these addresses; null for stdio. */
  listen: string[] | null;
  /** The preset's knobs overridden by the command line's. */
  knobs: Record<string, string>;
}

/** Reads the arguments after the program name. Throws UsageError or KnobError. */
export function parseInvocation(args: readonly string[]): Invocation {
  const [serverId, ...rest] = args;
  const entry = serverId === undefined ? undefined : findServer(serverId);
  if (serverId === undefined || entry === undefined) {
    const ids = catalogue.map((e) => e.id).join(', ');
    const problem = serverId === undefined ? 'no server id given' : `unknown server id ${JSON.stringify(serverId)}`;
    throw new UsageError(`${problem}; usage: ${USAGE}; server ids: ${ids}`);
  }
  const paths: Record<'--ledger' | '--control' | '--as', string | null> = { '--ledger': null, '--control': null, '--as': null };
  const listen: string[] = [];
  const assignments: string[] = [];
  let http = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--ledger' || arg === '--control' || arg === '--as' || arg === '--listen') {
      const value = rest[++i];
      if (value === undefined) throw new UsageError(`${arg} needs ${arg === '--listen' ? 'an address' : arg === '--as' ? 'a name' : 'a file'}; usage: ${USAGE}`);
      if (arg === '--listen') listen.push(value);
      else paths[arg] = value;
    } else if (arg === '--http') {
      http = true;
    } else if (arg.startsWith('--')) {
      throw new UsageError(`unknown option ${arg}; usage: ${USAGE}`);
    } else {
      assignments.push(arg);
    }
  }
  if (listen.length > 0 && !http) throw new UsageError(`--listen needs --http; usage: ${USAGE}`);
  return {
    serverId,
    ledgerPath: paths['--ledger'],
    controlPath: paths['--control'],
    as: paths['--as'],
    // Loopback unless told otherwise: only the harness's own network enclosure asks for another.
    listen: http ? (listen.length > 0 ? listen : ['127.0.0.1']) : null,
    knobs: { ...entry.knobs, ...parseAssignments(assignments) },
  };
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** 1 for die-on-call: a crash, as a broker would see one, not a refusal to start. */
const EXIT_CODES: Record<StopReason, number> = { 'stdin-closed': 0, 'bad-control-file': 2, 'die-on-call': 1 };

/**
 * Runs a server on this process's stdin/stdout; `args` are the arguments after the program name.
 * Sets process.exitCode, and resolves with it, when stdin closes (0), a call `die_on_call` names
 * arrives (1), or the command line or control file is bad (2). On a signal it records the exit
 * and dies of that same signal, as it would have without a handler.
 */
export async function runServer(args: readonly string[]): Promise<number> {
  const code = await runUntilStopped(args);
  process.exitCode = code;
  return code;
}

async function runUntilStopped(args: readonly string[]): Promise<number> {
  let invocation: Invocation;
  let knobs: Knobs;
  try {
    invocation = parseInvocation(args);
    knobs = resolveKnobs(invocation.knobs);
    refuseUnlistened(knobs, invocation.listen);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof KnobError)) throw error;
    process.stderr.write(`gauntlet server: ${error.message}\n`);
    return 2;
  }

  const ledger = new Ledger(invocation.ledgerPath);
  try {
    ledger.append({
      ev: 'launch',
      server: invocation.serverId,
      argv: process.argv,
      env: { ...process.env } as Record<string, string>,
      ppid: process.ppid,
      ...ownProcessIds(),
      knobs: invocation.knobs,
      ...(invocation.as === null ? {} : { as: invocation.as }),
    });
  } catch (error) {
    process.stderr.write(`gauntlet server: cannot write the ledger: ${(error as Error).message}\n`);
    return 2;
  }
  if (knobs.descendant) ledger.append({ ev: 'spawn', child: startDescendant() });
  const exit = (reason: ExitReason): void => ledger.append({ ev: 'exit', reason });
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      exit(signal);
      process.kill(process.pid, signal);
    });
  }
  // A client that goes away mid-reply is not an error worth crashing over; stdin's end follows.
  process.stdout.on('error', () => {});

  const setup = { serverId: invocation.serverId, knobs, ledger, controlPath: invocation.controlPath, limits: DEFAULT_LIMITS };
  const reason = invocation.listen !== null ? await serveHttp(setup, invocation.listen) : await serve(setup, { input: process.stdin, output: process.stdout });
  if (reason === 'stdin-closed' && knobs.linger) await lingerUntilKilled();
  exit(reason);
  return EXIT_CODES[reason];
}

/**
 * A child of the kind a careless server leaves behind (a worker, a language server it wraps): it
 * ignores the polite signals and does not notice the server's end, so only SIGKILL, to it or to
 * the process group it stays in, stops it. Its stdio is not the server's, so it holds no pipe of
 * the broker's open. Returns its pid.
 */
function startDescendant(): number {
  const script = "for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => undefined); setInterval(() => undefined, 1 << 30);";
  // Loaded here, not at the top: few scenarios ask for a descendant, and loading the module is a
  // measurable part of every kit server's start.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  child.unref();
  if (child.pid === undefined) throw new Error('the descendant did not start');
  return child.pid;
}

/**
 * Outlives the connection: only a signal ends it (and SIGKILL leaves no exit record). A broker
 * that merely closes its server's stdin leaves this process running.
 */
function lingerUntilKilled(): Promise<never> {
  return new Promise<never>(() => {
    setInterval(() => undefined, 1 << 30);
  });
}

function isMainModule(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

// Not awaited at the top level, so that the kit's bundle can be CommonJS (scripts/bundle-entries.mjs):
// a rejection still ends the process with an error, as an unhandled one.
if (isMainModule()) void runServer(process.argv.slice(2));
