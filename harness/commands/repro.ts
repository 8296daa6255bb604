import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { loadCatalogue } from '../catalogue.js';
import { didYouMean } from '../nearest.js';
import { MAX_RECORDS } from '../observe/canary.js';
import { parseOptions } from '../run/options.js';
import type { Scenario, Step } from '../scenario/types.js';

/**
 * `gauntlet repro <scenario-id> [--out DIR]`: a folder from which a person reproduces one scenario
 * by hand, with any MCP client or broker: the hostile server's command line with the scenario's
 * knobs, the operator's configuration, a script that starts the server with its ledger in the
 * folder, and a README.txt saying what the scenario expects and which ledger entries mean the
 * attack got through.
 */
export async function reproCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions({ args: argv, options: { out: { type: 'string' } }, allowPositionals: true });
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0) {
    process.stderr.write('usage: gauntlet repro <scenario-id> [--out DIR]\n');
    return 2;
  }
  const scenario = loadCatalogue().find((s) => s.id === id);
  if (scenario === undefined) {
    const near = didYouMean(id, loadCatalogue().map((s) => s.id));
    process.stderr.write(`mcp-gauntlet: no scenario ${JSON.stringify(id)}${near} (gauntlet list names them)\n`);
    return 2;
  }
  const out = resolve(values.out ?? `gauntlet-repro-${id}`);
  await mkdir(out, { recursive: true });
  // A fresh ledger, phase and canary record: what the folder shows is this reproduction's alone.
  await Promise.all(['ledger.jsonl', 'phase', CANARY_FILE].map((file) => rm(join(out, file), { force: true })));
  const http = scenario.server.transport === 'http';
  await writeFile(join(out, 'command.txt'), `${serveLine(scenario, ['npx', 'gauntlet'], 'ledger.jsonl', 'phase', CANARY_FILE).join(' ')}\n`);
  await writeFile(join(out, 'operator.json'), `${JSON.stringify(scenario.operator, null, 2)}\n`);
  await writeFile(join(out, 'start-server.sh'), http ? httpScript(scenario) : stdioScript(scenario));
  // Executable whether the file is new or rewritten (a mode given to writeFile applies only to a new file).
  await chmod(join(out, 'start-server.sh'), 0o755);
  await writeFile(join(out, 'README.txt'), readme(scenario));
  process.stdout.write(
    [
      `wrote ${out}`,
      http
        ? `next: run ${join(out, 'start-server.sh')}; it prints the URL to point your MCP client or broker at`
        : `next: point your MCP client or broker at the stdio server ${join(out, 'start-server.sh')} (its command, no arguments)`,
      `then: read ${join(out, 'README.txt')} for what the scenario expects, and ${join(out, 'ledger.jsonl')} for what the server received${judgesCanary(scenario) ? `; and ${join(out, CANARY_FILE)} for what reached the canary` : ''}`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** Where the folder's canary writes each request it receives. */
const CANARY_FILE = 'canary.jsonl';

/** Whether the scenario judges what reaches the canary, whose listener the folder then runs. */
const judgesCanary = (scenario: Scenario): boolean => scenario.expect?.canary_requests !== undefined || scenario.expect?.canary_headers_exclude !== undefined;

/** The server's command line: `gauntlet serve <server> --ledger L --control C [--canary F] [--http] knob=value ...`. */
function serveLine(scenario: Scenario, gauntlet: readonly string[], ledger: string, control: string, canary: string): string[] {
  const knobs = Object.entries(scenario.server.knobs ?? {}).map(([knob, value]) => `${knob}=${String(value)}`);
  const http = scenario.server.transport === 'http' ? ['--http', '--listen', '127.0.0.1'] : [];
  return [...gauntlet, 'serve', scenario.server.catalogue, '--ledger', ledger, '--control', control, ...(judgesCanary(scenario) ? ['--canary', canary] : []), ...http, ...knobs];
}

/** Single quotes for sh, except for words that need none (and "$here" references, kept live). */
const quote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) || word.startsWith('"$here/') ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/**
 * The lines of a script that find mcp-gauntlet as installed where the folder is, so that the
 * folder moves to any machine that has it: npx finds its command in the project around the folder
 * (or on PATH) and downloads nothing; GAUNTLET names another command. The server then runs as the
 * script's own child, not under npx, which would not pass a signal on to it.
 */
const FIND_GAUNTLET = `here=$(cd "$(dirname "$0")" && pwd)
gauntlet=\${GAUNTLET:-$(cd "$here" && npx --no-install -c 'command -v gauntlet' </dev/null 2>/dev/null)}
if [ -z "$gauntlet" ]; then
  echo "mcp-gauntlet is not installed where $here is: npm install mcp-gauntlet in the project around it, or set GAUNTLET to its command" >&2
  exit 1
fi`;

/** The server's command line in a script: the command found, and the folder's files by "$here". */
function serverInvocation(scenario: Scenario): string {
  const [, ...rest] = serveLine(scenario, ['$gauntlet'], '"$here/ledger.jsonl"', '"$here/phase"', `"$here/${CANARY_FILE}"`);
  return ['$gauntlet', ...rest.map(quote)].join(' ');
}

function stdioScript(scenario: Scenario): string {
  return `#!/bin/sh
# The hostile server of ${scenario.id}, on stdin/stdout: an MCP client or broker starts this
# script as its server's command. Every launch appends to ledger.jsonl beside it${judgesCanary(scenario) ? `, and starts
# its own canary listener on 127.0.0.1, recorded in ${CANARY_FILE} and stopped with the server` : ''}.
${FIND_GAUNTLET}
if [ -t 0 ]; then
  echo "this is a stdio MCP server: configure your client or broker with the command $here/start-server.sh" >&2
fi
exec ${serverInvocation(scenario)}
`;
}

function httpScript(scenario: Scenario): string {
  return `#!/bin/sh
# The hostile server of ${scenario.id}, over Streamable HTTP on 127.0.0.1 until interrupted. It
# picks a free port and writes it to ledger.jsonl; this script prints the URL once it listens.${judgesCanary(scenario) ? `
# Its canary listener, on 127.0.0.1 in the server's own process, records to ${CANARY_FILE} and stops with it.` : ''}
${FIND_GAUNTLET}
${serverInvocation(scenario)} &
server=$!
trap 'kill $server 2>/dev/null' INT TERM
tries=0
while :; do
  port=$(sed -n "s/^{\\"ev\\":\\"listening\\",\\"pid\\":$server,\\"seq\\":[0-9]*,\\"port\\":\\([0-9]*\\)}$/\\1/p" "$here/ledger.jsonl" 2>/dev/null)
  [ -n "$port" ] && break
  kill -0 $server 2>/dev/null || { echo "the server exited before listening" >&2; exit 1; }
  tries=$((tries + 1))
  [ $tries -gt 200 ] && { echo "the server did not listen within 20 s" >&2; kill $server; exit 1; }
  sleep 0.1
done
echo "listening: http://127.0.0.1:$port/mcp (ledger: $here/ledger.jsonl; Ctrl-C stops it)" >&2
# A signal ends the first wait early; the second lets the script end only after its server.
wait $server
wait $server 2>/dev/null
`;
}

/** What each step's expectations say to look for in the ledger, as sentences. */
function ledgerHints(scenario: Scenario): string[] {
  const hints: string[] = [];
  for (const step of scenario.steps) {
    if ('request' in step && step.request.expect.server_received !== undefined) {
      const { method, expect } = step.request;
      const reached = expect.server_received === 0 ? '; any at all means the request reached the server' : '';
      hints.push(`"ev":"recv" entries with "method":"${method}" during that request: exactly ${expect.server_received} expected${reached}.`);
    }
    if (!('call' in step)) continue;
    const { expect } = step.call;
    // The ledger names a tool as the server does.
    const calls = `"ev":"recv" entries with "method":"tools/call" and "tool":"${step.call.server_tool ?? step.call.tool}"`;
    if (expect.server_received !== undefined) {
      const reached = expect.server_received === 0 ? '; any at all means the call reached the server' : '';
      hints.push(`${calls}: exactly ${expect.server_received} expected for this call${reached}.`);
    }
    for (const argument of expect.server_arguments_absent ?? []) hints.push(`the "raw" line of those entries carrying the argument "${argument}" means it reached the server.`);
    if (expect.server_arguments !== undefined) hints.push(`the "raw" line of the first of those must carry the arguments ${JSON.stringify(expect.server_arguments)}.`);
  }
  const expected = scenario.expect ?? {};
  for (const [tool, count] of Object.entries(expected.ledger?.calls ?? {})) hints.push(`"ev":"recv" "tool":"${tool}" tools/call entries over the whole run: exactly ${count} expected.`);
  const env = expected.server_env;
  if (env?.absent?.length) hints.push(`the "env" of every "ev":"launch" entry must not hold ${env.absent.join(', ')}.`);
  if (env?.values_exclude?.length) hints.push(`no value in the "env" of a "ev":"launch" entry may contain ${env.values_exclude.map((v) => JSON.stringify(v)).join(', ')}.`);
  const headers = expected.server_headers;
  if (headers?.absent?.length) hints.push(`the "headers" of every "ev":"request" entry must not hold ${headers.absent.join(', ')}.`);
  if (headers?.values_exclude?.length) hints.push(`no header value of a "ev":"request" entry may contain ${headers.values_exclude.map((v) => JSON.stringify(v)).join(', ')}.`);
  if (expected.ledger?.spawns_min !== undefined) hints.push('"ev":"spawn" entries name the descendants the server started: each must be dead once the broker is gone.');
  return hints;
}

/** What the folder leaves out, said where the scenario needs it: another server to pin. */
function otherServers(scenario: Scenario): string {
  const pinned = scenario.steps.flatMap((step) => ('pin' in step && step.pin?.server !== undefined ? [step.pin.server] : []));
  const notes = pinned.map((server) => `A pin step reviews another catalogue server, ${server}: \`npx gauntlet serve ${server}\` (its preset knobs) in its place.`);
  return notes.length === 0 ? '' : `\n${notes.join('\n')}\n`;
}

/** How to read the canary's record, for a scenario that judges it: what reaching it means, and what the scenario allows. */
function canaryReading(scenario: Scenario): string {
  if (!judgesCanary(scenario)) return '';
  const { canary_requests: allowed, canary_headers_exclude: excluded } = scenario.expect ?? {};
  const rules = [
    ...(allowed === undefined ? [] : [`at most ${allowed} request line${allowed === 1 ? '' : 's'} expected${allowed === 0 ? '; any at all means the canary was reached' : ''}`]),
    ...(excluded === undefined ? [] : [`no header value of a request line may contain ${excluded.map((text) => JSON.stringify(text)).join(', ')}`]),
  ];
  return `
What to look at in ${CANARY_FILE}
${'-'.repeat(`What to look at in ${CANARY_FILE}`.length)}
The server points outside itself (a URL in a schema, a redirect) at a canary listener that no
conforming broker reaches. start-server.sh starts one with every server, on 127.0.0.1 in the
server's own process, and stops it when the server stops. Its first line,
{"ev":"listening","port":N}, says where it listens; each line after it,
{"ev":"request","method":...,"path":...,"headers":{...}}, is one request it received. Its bound
is the harness's: the first ${MAX_RECORDS} requests are written. The scenario: ${rules.join('; ')}.
`;
}

const usesPhases = (steps: Step[]): boolean => steps.some((step) => 'phase' in step);

/** Which case of its file a scenario is, when the file runs along variant axes (docs/scenario-format.md). */
const variantOf = (scenario: Scenario): string =>
  scenario.variant === undefined ? '' : `, run as its ${Object.entries(scenario.variant).map(([axis, value]) => `${axis} ${value}`).join(', ')} case (the operator's files here are that case's)`;

function readme(scenario: Scenario): string {
  const http = scenario.server.transport === 'http';
  const hints = ledgerHints(scenario);
  const enclosed = scenario.server.hosts !== undefined || scenario.server.resolves !== undefined || [scenario.server.listen ?? '127.0.0.1'].flat().some((a) => a !== '127.0.0.1');
  return `${scenario.id}: ${scenario.title}
${'='.repeat(scenario.id.length + scenario.title.length + 2)}

${scenario.kind === 'attack' ? `An attack (${scenario.level}; its benign control is ${scenario.control}).` : `A benign control (${scenario.level}): ordinary use that a broker must not break.`}
Requirements: ${scenario.requirements.join(', ')} (docs/requirements.md). Protections tested: ${scenario.claims.join(', ') || 'none'}.
Scenario file: ${scenario.file}${variantOf(scenario)}

${scenario.description.trim()}

Files here
----------
command.txt      the hostile server's command line, with the scenario's knobs
operator.json    the operator's configuration, broker-neutral: translate it into your broker's${http ? ' ({port} is the port the script prints)' : ''}
start-server.sh  starts the server with its ledger here: ${http ? 'it listens on 127.0.0.1 and prints its URL' : 'a stdio server, the command your client or broker starts'}
ledger.jsonl     written by the server (JSON lines): everything it received, sent and did
${judgesCanary(scenario) ? `${CANARY_FILE.padEnd(16)} written by the canary listener (JSON lines): every request that reached it\n` : ''}phase            ${usesPhases(scenario.steps) ? 'the server shows its "review" face until this file holds "run" (echo run > phase), as the steps below switch it' : 'unused by this scenario'}
${otherServers(scenario)}${enclosed ? `\nThe harness runs this server inside a network enclosure (docs/network.md: addresses ${JSON.stringify(scenario.server.listen ?? [])}, names ${JSON.stringify({ ...scenario.server.hosts, ...scenario.server.resolves })}); this script serves on 127.0.0.1 only.\n` : ''}
What the scenario does, and what it expects
-------------------------------------------
The harness's agent performs these steps against the broker; each "expect" is what a conforming
broker lets the agent and the server observe.

${stringify(scenario.steps).trimEnd()}
${scenario.expect === undefined ? '' : `\nAfter the session:\n\n${stringify(scenario.expect).trimEnd()}\n`}
What to look at in ledger.jsonl
------------------------------
Each line is one record: "launch" (the server started: its argv and whole environment), "recv"
(a line it received, with its method and, for tools/call, the tool), "sent" (a line it sent),
"spawn", "killed", "exit", and over HTTP "listening", "connection" and "request" (with every
header). The ledger is the server's own account; the broker never sees it.
${hints.length === 0 ? `\nThis scenario is judged on what the agent receives (the steps' "agent", "text_*" and "answer_*"\nexpectations) rather than on ledger entries alone; the "sent" entries show what the server offered.\n` : `\nThe scenario's expectations on the ledger (${scenario.kind === 'attack' ? 'an attack that got through' : 'a broken control'} breaks at least one):\n\n${hints.map((hint) => `- ${hint}`).join('\n')}\n`}${canaryReading(scenario)}`;
}
