#!/usr/bin/env node
// The broker's command line. stdout belongs to the MCP session, so every diagnostic goes to
// stderr, escaped: it can quote what the server chose (its stderr, its tool names).

import { parseArgs } from 'node:util';
import { verifyAudit } from './session/audit.js';
import { BrokerError, ConfigError, EXIT } from './errors.js';
import { pin } from './commands/pin.js';
import { escapeServerText } from './inspect/sanitize.js';
import { parseListen } from './front-door/address.js';
import { serve } from './commands/serve.js';

const USAGE = `usage:
  gauntlet-broker pin   --config CONFIG.json --out MANIFEST.json [--disable-guard NAME ...]
  gauntlet-broker serve --config CONFIG.json (--manifest MANIFEST.json | --unpinned) [--report LOAD.json]
                        [--state-dir DIR] [--agent ID] [--audit FILE] [--disable-guard NAME ...]
                        [--listen [HOST:]PORT [--allow-origin ORIGIN ...]]
  gauntlet-broker audit-verify FILE`;

function log(line: string): void {
  process.stderr.write(`gauntlet-broker: ${escapeServerText(line)}\n`);
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

async function main(argv: readonly string[]): Promise<number> {
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
    return auditVerify(file);
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
        { input: process.stdin, output: process.stdout, log },
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
async function auditVerify(file: string): Promise<number> {
  const verdict = await verifyAudit(file);
  if (verdict.ok) {
    process.stdout.write(`audit trail ${file} verifies: ${verdict.last.seq} record(s)\n`);
    return EXIT.ok;
  }
  process.stdout.write(`audit trail ${file} is tampered at seq ${verdict.seq}: ${escapeServerText(verdict.problem)}\n`);
  return EXIT.tampered;
}

/** How long answers already written to a slow agent may take to flush before the broker exits. */
const FLUSH_MS = 2000;

// Writes to a pipe can still be queued; exiting at once would drop the last answers.
function exit(code: number): void {
  process.exitCode = code; // also the code if the process ends on its own before either fires
  setTimeout(() => process.exit(code), FLUSH_MS).unref();
  process.stdout.write('', () => process.exit(code));
}

main(process.argv.slice(2)).then(exit, (err: unknown) => {
  if (err instanceof BrokerError) {
    log(err.message);
    if (err instanceof ConfigError) process.stderr.write(`${USAGE}\n`);
    exit(err.exitCode);
    return;
  }
  log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  exit(1);
});
