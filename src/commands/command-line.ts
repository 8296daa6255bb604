// The broker's command line as a function of its arguments and its three streams, so that it runs
// in-process under test (and so under mutation testing); src/cli.ts hands it the process's own.
// stdout belongs to the MCP session, so every diagnostic goes to the error stream, escaped: it can
// quote what the server chose (its stderr, its tool names).

import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { verifyAudit } from '../session/audit.js';
import { BrokerError, ConfigError, EXIT } from '../errors.js';
import { escapeServerText } from '../inspect/sanitize.js';
import { parseListen } from '../front-door/address.js';
import { pin } from './pin.js';
import { serve } from './serve.js';

const USAGE = `usage:
  gauntlet-broker pin   --config CONFIG.json --out MANIFEST.json [--disable-guard NAME ...]
  gauntlet-broker serve --config CONFIG.json (--manifest MANIFEST.json | --unpinned) [--report LOAD.json]
                        [--state-dir DIR] [--agent ID] [--audit FILE] [--disable-guard NAME ...]
                        [--listen [HOST:]PORT [--allow-origin ORIGIN ...]]
  gauntlet-broker audit-verify FILE`;

/** What the harness reads at the start of each broker line on stderr (harness/candidates/reference.ts). */
const LOG_PREFIX = 'gauntlet-broker: ';

export interface CommandLineIo {
  /** The agent's channel for serve; audit-verify prints its verdict on `output`. */
  readonly input: Readable;
  readonly output: Writable;
  /** Diagnostics and usage; never the MCP channel. */
  readonly errors: Writable;
}

/** Runs one command and returns its exit code; a failure is reported on `errors`, never thrown. */
export async function runCommandLine(argv: readonly string[], io: CommandLineIo): Promise<number> {
  const log = (line: string): void => {
    io.errors.write(`${LOG_PREFIX}${escapeServerText(line)}\n`);
  };
  try {
    return await run(argv, io, log);
  } catch (err) {
    if (err instanceof BrokerError) {
      log(err.message);
      if (err instanceof ConfigError) io.errors.write(`${USAGE}\n`);
      return err.exitCode;
    }
    log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  }
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: 'string' },
        out: { type: 'string' },
        manifest: { type: 'string' },
        unpinned: { type: 'boolean' },
        report: { type: 'string' },
        'state-dir': { type: 'string' },
        agent: { type: 'string' },
        audit: { type: 'string' },
        'disable-guard': { type: 'string', multiple: true },
        listen: { type: 'string' },
        'allow-origin': { type: 'string', multiple: true },
      },
    });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

async function run(argv: readonly string[], io: CommandLineIo, log: (line: string) => void): Promise<number> {
  const { values, positionals } = parse(argv);
  const need = (value: string | undefined, flag: string): string => {
    if (value === undefined) throw new ConfigError(`--${flag} is required`);
    return value;
  };
  const allowOnly = (allowed: readonly string[]): void => {
    const extra = Object.keys(values).filter((key) => !allowed.includes(key));
    if (extra.length > 0) throw new ConfigError(`--${extra.join(', --')} does not apply to this command`);
  };
  const [command, ...rest] = positionals;
  if (command === 'audit-verify') {
    allowOnly([]);
    const [file, ...more] = rest;
    if (file === undefined || more.length > 0) throw new ConfigError('audit-verify takes exactly one FILE');
    return auditVerify(file, io.output);
  }
  if (rest.length > 0) throw new ConfigError(`unexpected argument ${rest[0]}`);
  switch (command) {
    case 'pin':
      allowOnly(['config', 'out', 'disable-guard']);
      await pin(need(values.config, 'config'), need(values.out, 'out'), values['disable-guard'] ?? []);
      return EXIT.ok;
    case 'serve':
      allowOnly(['config', 'manifest', 'unpinned', 'report', 'state-dir', 'agent', 'audit', 'disable-guard', 'listen', 'allow-origin']);
      if (values.unpinned === true && values.manifest !== undefined) throw new ConfigError('--manifest and --unpinned exclude each other');
      if (values.listen === undefined && values['allow-origin'] !== undefined) throw new ConfigError('--allow-origin needs --listen');
      return serve(
        {
          configPath: need(values.config, 'config'),
          manifestPath: values.manifest,
          unpinned: values.unpinned === true,
          reportPath: values.report,
          disabledGuards: values['disable-guard'] ?? [],
          stateDir: values['state-dir'],
          agent: values.agent,
          auditPath: values.audit,
          ...(values.listen === undefined ? {} : { frontDoor: { listen: parseListen(values.listen), allowedOrigins: (values['allow-origin'] ?? []).map(originOf) } }),
        },
        { input: io.input, output: io.output, log },
      );
    default:
      throw new ConfigError(command === undefined ? 'no command given' : `unknown command ${command}`);
  }
}

/** An origin the operator allows, as a browser serialises it; anything else is a command-line error. */
function originOf(text: string): string {
  const origin = URL.canParse(text) ? new URL(text).origin : 'null';
  if (origin === 'null') throw new ConfigError(`--allow-origin ${text} is not an http(s) origin`);
  return origin;
}

/** Exit 0 when the trail verifies, 1 naming the first bad record when it does not. */
async function auditVerify(file: string, output: Writable): Promise<number> {
  const verdict = await verifyAudit(file);
  if (verdict.ok) {
    output.write(`audit trail ${file} verifies: ${verdict.last.seq} record(s)\n`);
    return EXIT.ok;
  }
  output.write(`audit trail ${file} is tampered at seq ${verdict.seq}: ${escapeServerText(verdict.problem)}\n`);
  return EXIT.tampered;
}
