// `pin` and `serve` (src/commands) run from source in this process, with the agent's channel a
// pair of in-memory streams and the fake server fixture as the server, so that mutation testing
// reaches them: what the agent is served and told, the files serve writes (load report, audit
// trail), what it returns, several servers served together, and each refusal of the operator's
// inputs before any server starts.
// e2e.test.ts shows the same commands through the compiled command line.

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { pin } from '../../src/commands/pin.js';
import { serve, type ServeOptions } from '../../src/commands/serve.js';
import { ConfigError, EXIT } from '../../src/errors.js';
import { FIXTURE, Workdir, toolsText, waitDead, type ToolText } from './e2e-helpers.js';
import { INITIALIZE, INITIALIZED, LIST, converse, messagesIn } from './agent-channel.js';

const READ: ToolText = { name: 'read_note', description: 'Read one note.', annotations: '{"readOnlyHint":true}' };
const WRITE: ToolText = { name: 'write_note', description: 'Write a note.' };
const RULES = { read_note: { effect: 'read_only' }, write_note: { effect: 'local_change' } };

let work: Workdir;
afterEach(async () => {
  await work.cleanup();
});

/** A workdir whose server lists `tools`, with `rules`, pinned in this process. */
async function pinned(tools: ToolText[] = [READ, WRITE], rules: object = RULES, extra: Parameters<Workdir['writeConfig']>[1] = {}): Promise<Workdir> {
  work = new Workdir();
  work.spec({ pages: [toolsText(tools)] });
  work.writeConfig(rules, extra);
  await pin(work.config, work.manifest, []);
  return work;
}

/** serve with these options, the agent sending `lines` and then ending its input. */
async function served(options: Partial<ServeOptions>, lines: string[]) {
  const log: string[] = [];
  const { result: code, out } = await converse(
    ({ input, output }) =>
      serve(
        { configPath: work.config, manifestPath: work.manifest, unpinned: false, reportPath: work.report, disabledGuards: [], stateDir: work.path('state'), agent: undefined, auditPath: undefined, ...options },
        { input, output, log: (line) => log.push(line) },
      ),
    lines,
  );
  return { code, log, answers: messagesIn(out) };
}

describe('pin', () => {
  it('writes a manifest pinning every tool the server lists', async () => {
    const w = await pinned();
    const manifest = JSON.parse(readFileSync(w.manifest, 'utf8'));
    expect(manifest.server).toBe('notes');
    expect(Object.keys(manifest.tools)).toEqual(['read_note', 'write_note']);
  });

  it('stops the server once the manifest is written, and names the manifest when it cannot write it', async () => {
    const w = await pinned();
    expect(await waitDead(Number(readFileSync(w.serverPidFile, 'utf8')))).toBe(true);
    // A folder where the manifest should go: the write fails, and the error says what it was writing.
    const folder = w.path('state');
    mkdirSync(folder, { recursive: true });
    await expect(pin(w.config, folder, [])).rejects.toThrow(new ConfigError(`cannot write the manifest ${folder}: EISDIR: illegal operation on a directory, open '${folder}'`));
  });
});

describe('serve', () => {
  it('serves the registered tools, writes the load report and the audit trail, and returns 0 once the agent ends', async () => {
    const w = await pinned();
    const audit = w.path('audit.jsonl');
    const { code, log, answers } = await served({ auditPath: audit }, [INITIALIZE, INITIALIZED, LIST]);
    expect(code).toBe(EXIT.ok);
    expect(log).toEqual(['serving 2 tool(s) from server "notes"']);
    expect(answers.find((a) => a.id === 1).result.tools.map((t: { name: string }) => t.name)).toEqual(['read_note', 'write_note']);
    expect(w.loadReport().registered.map((t: { tool: string }) => t.tool)).toEqual(['read_note', 'write_note']);
    const records = readFileSync(audit, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => [r.decision, r.tool, r.detail, r.agent])).toEqual([
      ['registered', 'read_note', 'effect read_only', null],
      ['registered', 'write_note', 'effect local_change', null],
    ]);
    expect(records[0].contract.description_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records each refused tool in the audit trail with the guard that refused it', async () => {
    const w = await pinned([READ, { name: 'unclassified' }], { read_note: { effect: 'read_only' } });
    const audit = w.path('audit.jsonl');
    await served({ auditPath: audit, agent: undefined }, [INITIALIZE]);
    const records = readFileSync(audit, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => [r.decision, r.tool, r.name])).toEqual([
      ['registered', 'read_note', 'read_note'],
      ['refused', 'unclassified', null],
    ]);
    expect(records[1].detail).toMatch(/^classified: /);
  });

  it('keeps the audit trail in the state directory when no --audit is given', async () => {
    const w = await pinned();
    await served({}, [INITIALIZE]);
    expect(existsSync(w.path('state/audit.jsonl'))).toBe(true);
  });

  it('stops with 3, and says which guard, when no tool registers', async () => {
    await pinned([{ name: 'unclassified' }], {});
    const { code, log } = await served({}, []);
    expect(code).toBe(EXIT.nothingRegistered);
    expect(log).toEqual(['guard nothing-registered stopped the broker: no tool registered']);
  });

  it('makes a private state directory for approvals when the policy asks for them and none is given, and says where', async () => {
    await pinned(undefined, undefined, { policy: { local_change: 'approve' } });
    const { log } = await served({ stateDir: undefined }, [INITIALIZE]);
    const made = /^no --state-dir given: approvals are kept in (.*gauntlet-broker-state-.*)$/.exec(log[0]!)?.[1];
    expect(made).toBeDefined();
    expect(statSync(made!).mode & 0o777).toBe(0o700);
    rmSync(made!, { recursive: true, force: true });
    // Without approvals there is nothing to keep, and no directory is made.
    await pinned(undefined, undefined, { policy: { local_change: 'allow', remote_change: 'allow', destructive: 'allow' } });
    expect((await served({ stateDir: undefined }, [INITIALIZE])).log).toEqual(['serving 2 tool(s) from server "notes"']);
  });

  it('refuses to serve without a manifest unless told --unpinned, before any server starts', async () => {
    const w = await pinned();
    const pinning = w.received().length;
    await expect(served({ manifestPath: undefined }, [])).rejects.toThrow(
      new ConfigError('guard manifest-required refused the configuration: no manifest was given: pin the server and review its manifest first (or serve --unpinned)'),
    );
    expect(w.received()).toHaveLength(pinning);
    const unpinned = await served({ manifestPath: undefined, unpinned: true }, []);
    // Served knowingly unpinned, every tool is unpinned, so none registers.
    expect(unpinned.code).toBe(EXIT.nothingRegistered);
    expect(unpinned.log).toEqual(['guard nothing-registered stopped the broker: no tool registered']);
  });

  it('refuses a session without an agent, or with one the configuration does not name, when it names agents', async () => {
    const w = await pinned(undefined, undefined, { agents: { writer: { tools: ['write_note'] }, reader: { tools: ['read_note'] } } });
    const pinning = w.received().length;
    await expect(served({}, [])).rejects.toThrow(new ConfigError('the configuration names agents, so serve needs --agent (one of writer, reader)'));
    await expect(served({ agent: 'mallory' }, [])).rejects.toThrow(new ConfigError('--agent mallory is not an agent the configuration names'));
    expect(w.received()).toHaveLength(pinning);
    const { answers } = await served({ agent: 'reader' }, [INITIALIZE, INITIALIZED, LIST]);
    expect(answers.find((a) => a.id === 1).result.tools.map((t: { name: string }) => t.name)).toEqual(['read_note']);
  });

  it('serves several servers: each pinned, listed and decided as its own, each call to its own server, and what one was lent redacted from every result', async () => {
    work = new Workdir();
    const w = work;
    const callLog = (id: string) => w.path(`${id}-calls.jsonl`);
    const server = (id: string, tool: ToolText, callResult: string) => {
      writeFileSync(w.path(`${id}.json`), JSON.stringify({ callLog: callLog(id), pages: [toolsText([tool])], callResult }));
      return { id, command: process.execPath, args: [FIXTURE, w.path(`${id}.json`)], prefix: id, rules: { [tool.name]: { effect: 'read_only' } } };
    };
    const text = (words: string) => JSON.stringify({ content: [{ type: 'text', text: words }] });
    // beta quotes what alpha was lent: its results must not carry it either.
    const servers = [
      { ...server('alpha', READ, text('alpha answered')), env: { ALPHA_KEY: 'alpha-lent-value-1234' } },
      server('beta', { ...READ, name: 'read_memo' }, text('beta saw alpha-lent-value-1234')),
    ];
    writeFileSync(w.config, JSON.stringify({ servers }), { mode: 0o600 });
    await pin(w.config, w.manifest, []);
    const call = (id: number, name: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
    const { code, log, answers } = await served({}, [INITIALIZE, INITIALIZED, LIST, call(2, 'alpha_read_note'), call(3, 'beta_read_memo')]);
    expect(code).toBe(EXIT.ok);
    expect(log).toEqual(['serving 2 tool(s) from servers "alpha", "beta"']);
    expect(answers.find((a) => a.id === 1).result.tools.map((t: { name: string }) => t.name)).toEqual(['alpha_read_note', 'beta_read_memo']);
    expect(w.loadReport().server).toBe('alpha, beta');
    const calledOn = (id: string) => readFileSync(callLog(id), 'utf8').split('\n').filter((line) => line.includes('tools/call')).map((line) => JSON.parse(line).params.name);
    expect([calledOn('alpha'), calledOn('beta')]).toEqual([['read_note'], ['read_memo']]);
    expect(answers.find((a) => a.id === 2).result.content[0].text).toBe('alpha answered');
    expect(answers.find((a) => a.id === 3).result.content[0].text).toBe('beta saw [redacted: alpha.ALPHA_KEY]');
  });

  it('refuses a state directory it cannot make', async () => {
    const w = await pinned();
    await expect(served({ stateDir: `${w.config}/state` }, [])).rejects.toThrow(/^cannot prepare the state directory: /);
  });
});
