// The broker's command line (src/commands/command-line.ts) run in this process, its three streams
// in memory, so that mutation testing reaches it: each refusal of the arguments with its exit code,
// message and usage; each flag reaching the command it belongs to; audit-verify's verdicts; and
// diagnostics escaped, on the error stream only. e2e.test.ts runs the same through the compiled
// program (src/cli.ts), which adds only the exit that lets the last answers flush.

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/commands/command-line.js';
import { EXIT } from '../../src/errors.js';
import { INITIALIZE, INITIALIZED, LIST, converse, messagesIn } from './agent-channel.js';
import { Workdir, toolsText } from './e2e-helpers.js';

const TOOLS = toolsText([{ name: 'read_note', description: 'Read one note.' }, { name: 'write_note', description: 'Write a note.' }]);
const RULES = { read_note: { effect: 'read_only' }, write_note: { effect: 'local_change' } };

let work: Workdir | undefined;
afterEach(async () => {
  await work?.cleanup();
  work = undefined;
});

/** A workdir whose server lists the two tools, classified. */
function workdir(): Workdir {
  work = new Workdir();
  work.spec({ pages: [TOOLS] });
  work.writeConfig(RULES);
  return work;
}

/** The command line run on `argv` with an agent that sends `lines`; its code and all three streams. */
async function commandLine(argv: string[], lines: string[] = []) {
  const errors = new PassThrough();
  let stderr = '';
  errors.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { result: code, out: stdout } = await converse(({ input, output }) => runCommandLine(argv, { input, output, errors }), lines);
  return { code, stdout, stderr };
}

/** A refusal of the command line: exit 2, one escaped diagnostic, then the usage. */
async function refused(argv: string[]): Promise<string> {
  const { code, stdout, stderr } = await commandLine(argv);
  expect(code).toBe(EXIT.usage);
  expect(stdout).toBe('');
  const [diagnostic, ...usage] = stderr.split('\n');
  expect(usage[0]).toBe('usage:');
  expect(usage.join('\n')).toContain('gauntlet-broker audit-verify FILE');
  expect(diagnostic).toMatch(/^gauntlet-broker: /);
  return diagnostic!.slice('gauntlet-broker: '.length);
}

describe('the command line refuses', () => {
  it('no command, an unknown one, an unknown option and a stray argument', async () => {
    expect(await refused([])).toBe('no command given');
    expect(await refused(['frobnicate'])).toBe('unknown command frobnicate');
    expect(await refused(['pin', '--colour'])).toMatch(/^Unknown option '--colour'/);
    expect(await refused(['pin', 'extra', '--config', 'c'])).toBe('unexpected argument extra');
    expect(await refused(['serve', 'one', 'two'])).toBe('unexpected argument one');
  });

  it('a missing required option, naming it', async () => {
    expect(await refused(['pin', '--out', 'm.json'])).toBe('--config is required');
    expect(await refused(['pin', '--config', 'c.json'])).toBe('--out is required');
    expect(await refused(['serve', '--unpinned'])).toBe('--config is required');
  });

  it('an option that belongs to another command, naming every one', async () => {
    expect(await refused(['pin', '--config', 'c', '--out', 'o', '--manifest', 'm'])).toBe('--manifest does not apply to this command');
    expect(await refused(['pin', '--config', 'c', '--out', 'o', '--agent', 'a', '--listen', '1'])).toBe('--agent, --listen does not apply to this command');
    expect(await refused(['serve', '--config', 'c', '--out', 'o'])).toBe('--out does not apply to this command');
    expect(await refused(['audit-verify', 'trail.jsonl', '--config', 'c'])).toBe('--config does not apply to this command');
  });

  it('audit-verify without exactly one file', async () => {
    expect(await refused(['audit-verify'])).toBe('audit-verify takes exactly one FILE');
    expect(await refused(['audit-verify', 'a', 'b'])).toBe('audit-verify takes exactly one FILE');
  });

  it('--manifest with --unpinned, and --allow-origin without --listen', async () => {
    expect(await refused(['serve', '--config', 'c', '--manifest', 'm', '--unpinned'])).toBe('--manifest and --unpinned exclude each other');
    expect(await refused(['serve', '--config', 'c', '--allow-origin', 'https://a.example'])).toBe('--allow-origin needs --listen');
  });

  it('an allowed origin that is not an http(s) origin, and a listen address it cannot parse', async () => {
    for (const origin of ['file:///etc/passwd', 'not a url', 'data:text/plain,x']) {
      expect(await refused(['serve', '--config', 'c', '--unpinned', '--listen', '127.0.0.1:9', '--allow-origin', origin])).toBe(`--allow-origin ${origin} is not an http(s) origin`);
    }
    expect(await refused(['serve', '--config', 'c', '--unpinned', '--listen', 'nowhere:port'])).toMatch(/nowhere:port/);
  });

  it('an http(s) origin, as its origin, and no origin at all: serve goes on to read its configuration', async () => {
    const missing = '/nonexistent/config.json';
    for (const origins of [['--allow-origin', 'https://a.example:443/path?q', '--allow-origin', 'http://127.0.0.1:8080'], []]) {
      const diagnostic = await refused(['serve', '--config', missing, '--unpinned', '--listen', '127.0.0.1:9', ...origins]);
      expect(diagnostic).toContain(missing);
    }
  });

  it('with what the operator typed escaped, so a diagnostic cannot drive the terminal', async () => {
    const diagnostic = await refused(['\u001b[2Jgone']);
    expect(diagnostic).not.toContain('\u001b');
    expect(diagnostic).toMatch(/^unknown command .*gone$/);
  });
});

describe('the command line runs', () => {
  it('pin with its configuration, manifest and disabled guards', async () => {
    const w = workdir();
    const pinned = await commandLine(['pin', '--config', w.config, '--out', w.manifest]);
    expect([pinned.code, pinned.stdout, pinned.stderr]).toEqual([EXIT.ok, '', '']);
    expect(Object.keys(JSON.parse(readFileSync(w.manifest, 'utf8')).tools)).toEqual(['read_note', 'write_note']);
    // The guards named reach pin: a name it does not know is the operator's error, with its code.
    const unknown = await commandLine(['pin', '--config', w.config, '--out', w.manifest, '--disable-guard', 'no-such-guard']);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toMatch(/^gauntlet-broker: .*no-such-guard/);
  });

  it('serve with every file option reaching it, the agent answered on stdout and the diagnostics on stderr', async () => {
    const w = workdir();
    await commandLine(['pin', '--config', w.config, '--out', w.manifest]);
    const audit = w.path('trail.jsonl');
    const served = await commandLine(['serve', '--config', w.config, '--manifest', w.manifest, '--report', w.report, '--state-dir', w.path('state'), '--audit', audit], [INITIALIZE, INITIALIZED, LIST]);
    expect(served.code).toBe(EXIT.ok);
    expect(served.stderr).toBe('gauntlet-broker: serving 2 tool(s) from server "notes"\n');
    expect(messagesIn(served.stdout).find((a) => a.id === 1).result.tools.map((t: { name: string }) => t.name)).toEqual(['read_note', 'write_note']);
    expect(w.loadReport().registered).toHaveLength(2);
    expect(existsSync(audit)).toBe(true);
    expect(existsSync(w.path('state'))).toBe(true);
    expect(existsSync(w.path('state/audit.jsonl'))).toBe(false);
  });

  it('serve --unpinned and --disable-guard as given', async () => {
    const w = workdir();
    const unpinned = await commandLine(['serve', '--config', w.config, '--unpinned', '--state-dir', w.path('state')]);
    // Knowingly unpinned, nothing registers: the broker's own stop, not a command-line error.
    expect(unpinned.code).toBe(EXIT.nothingRegistered);
    expect(unpinned.stderr).toBe('gauntlet-broker: guard nothing-registered stopped the broker: no tool registered\n');
    const guard = await commandLine(['serve', '--config', w.config, '--unpinned', '--state-dir', w.path('state'), '--disable-guard', 'no-such-guard']);
    expect(guard.code).toBe(EXIT.usage);
    expect(guard.stderr).toMatch(/^gauntlet-broker: .*no-such-guard/);
  });

  it('serve without --manifest or --unpinned: refused before any server starts', async () => {
    const w = workdir();
    const served = await commandLine(['serve', '--config', w.config, '--state-dir', w.path('state')]);
    expect(served.code).toBe(EXIT.usage);
    expect(served.stderr).toMatch(/^gauntlet-broker: guard manifest-required refused the configuration: /);
    expect(w.received()).toEqual([]);
  });

  it('a failure that is not the command line\'s: its own code, and no usage', async () => {
    const w = workdir();
    w.writeConfig(RULES, { command: w.path('no-such-server') });
    const pinned = await commandLine(['pin', '--config', w.config, '--out', w.manifest]);
    expect(pinned.code).toBe(EXIT.upstream);
    expect(pinned.stderr.split('\n')).toHaveLength(2);
    expect(pinned.stderr).toMatch(/^gauntlet-broker: .*no-such-server/);
  });

  it('serve --agent as given: the agent the configuration names sees its own tools, another is refused', async () => {
    const w = workdir();
    w.writeConfig(RULES, { agents: { reader: { tools: ['read_note'] } } });
    await commandLine(['pin', '--config', w.config, '--out', w.manifest]);
    const serving = ['serve', '--config', w.config, '--manifest', w.manifest, '--state-dir', w.path('state'), '--agent'];
    const reader = await commandLine([...serving, 'reader'], [INITIALIZE, INITIALIZED, LIST]);
    expect(messagesIn(reader.stdout).find((a) => a.id === 1).result.tools.map((t: { name: string }) => t.name)).toEqual(['read_note']);
    const mallory = await commandLine([...serving, 'mallory']);
    expect(mallory.code).toBe(EXIT.usage);
    expect(mallory.stderr).toMatch(/^gauntlet-broker: --agent mallory is not an agent the configuration names\n/);
  });

  it('audit-verify: 0 and the count for an intact trail, 1 and the first bad record for a tampered one', async () => {
    const w = workdir();
    await commandLine(['pin', '--config', w.config, '--out', w.manifest]);
    const audit = w.path('trail.jsonl');
    await commandLine(['serve', '--config', w.config, '--manifest', w.manifest, '--state-dir', w.path('state'), '--audit', audit], [INITIALIZE]);
    const intact = await commandLine(['audit-verify', audit]);
    expect([intact.code, intact.stdout, intact.stderr]).toEqual([EXIT.ok, `audit trail ${audit} verifies: 2 record(s)\n`, '']);
    appendFileSync(audit, '{"seq":3,"\u001b[31m":1}\n');
    const tampered = await commandLine(['audit-verify', audit]);
    expect(tampered.code).toBe(EXIT.tampered);
    expect(tampered.stdout).toMatch(new RegExp(`^audit trail ${audit} is tampered at seq 3: `));
    expect(tampered.stdout).not.toContain('\u001b');
  });

  it('audit-verify of a file it cannot read: the operator error, with its code', async () => {
    const w = workdir();
    const missing = await commandLine(['audit-verify', w.path('missing.jsonl')]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toMatch(/^gauntlet-broker: cannot read the audit trail /);
  });
});
