import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { kitCaFile, packageRoot, reportDirFor } from '../../harness/paths.js';
import { loadRequirements } from '../../harness/requirements.js';
import { openingLine } from '../../harness/run/finish.js';

const bin = join(packageRoot, 'bin', 'gauntlet.js');
const run = promisify(execFile);

const gauntlet = (...args: string[]) => gauntletIn(process.env, ...args);

async function gauntletIn(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: packageRoot, env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-cli-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('gauntlet CLI', () => {
  it('lists every requirement with the scenarios covering it', async () => {
    const { code, stdout } = await gauntlet('list', '--requirements', '--json');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ id: string; scenarios: string[] }>;
    expect(rows.map((r) => r.id)).toEqual(loadRequirements().map((r) => r.id));
    const foundation = rows.filter((r) => /^(CLS|PIN-[1-7]$|LST|HNT-[1-4]$|DSC-1$)/.test(r.id));
    for (const row of foundation) expect(row.scenarios.length, `${row.id} is uncovered`).toBeGreaterThan(0);
  });

  it('lists each scenario with its claims, control, hooks and checks as JSON', async () => {
    const { code, stdout } = await gauntlet('list', '--json');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ id: string; claims: string[]; control?: string; hooks: string[]; checks: Array<{ check: string; class: string }> }>;
    const approval = rows.find((row) => row.id === 'pol.approved-call-runs-once');
    expect(approval).toMatchObject({ claims: ['policy', 'approvals'], control: 'pol.allowed-class' });
    expect(approval?.hooks).toEqual(expect.arrayContaining(['command-upstream', 'approve']));
    expect(approval?.checks).toContainEqual({ check: 'call.server_received', class: 'harm' });
    // Each case says its revision; the 2026-07-28 case is paired with the control of that revision.
    expect(approval).toMatchObject({ revision: '2025-11-25' });
    expect(rows.find((row) => row.id === 'pol.approved-call-runs-once.2026-07-28')).toMatchObject({ revision: '2026-07-28', control: 'pol.allowed-class.2026-07-28' });
    expect(rows.find((row) => row.id === 'smp.allowed-reaches-agent')).toMatchObject({ legacy: true });
  });

  it('refuses a revision it does not know before anything runs', async () => {
    const { code, stderr } = await gauntlet('run', '--candidate', 'passthrough', '--revision', '2024-11-05', '--report-dir', scratch());
    expect(code).toBe(2);
    expect(stderr).toMatch(/--revision takes 2025-11-25 or 2026-07-28, not 2024-11-05/);
  });

  it('lists each class of each public taxonomy with the cases that judge it, or why none can', async () => {
    const { code, stdout } = await gauntlet('list', '--taxonomies', '--json');
    expect(code).toBe(0);
    const taxonomies = JSON.parse(stdout) as Array<{ id: string; classes: Array<{ id: string; cases: string[]; reason?: string }> }>;
    expect(taxonomies.map((t) => t.id)).toEqual(['cosai-mcp-threats', 'mcp-safetybench', 'mcpsecbench', 'msb', 'owasp-mcp-top-10']);
    for (const entry of taxonomies.flatMap((t) => t.classes)) expect(entry.cases.length > 0 || (entry.reason ?? '') !== '', entry.id).toBe(true);
    const owasp = taxonomies.find((t) => t.id === 'owasp-mcp-top-10')!;
    expect(owasp.classes.find((c) => c.id === 'MCP03')!.cases).toContain('pin.description-reworded.2026-07-28');
  });

  it('flags uncovered requirements in its plain listing', async () => {
    const { stdout } = await gauntlet('list', '--requirements');
    expect(stdout).toMatch(/\d+ requirements, \d+ covered, \d+ uncovered/);
  });

  it('exits 2 when no scenario matches the filter', async () => {
    const { code, stderr } = await gauntlet('run', '--filter', 'no.such-scenario*', '--report-dir', scratch());
    expect(code).toBe(2);
    expect(stderr).toMatch(/no scenario matches/);
  });

  it('exits 2 for an adapter it cannot load', async () => {
    const { code, stderr } = await gauntlet('run', '--candidate', './no-such-adapter.js', '--report-dir', scratch());
    expect(code).toBe(2);
    expect(stderr).toMatch(/not a built-in candidate/);
  });

  it('exits 1 and writes all four reports when an attack succeeds against passthrough', async () => {
    const dir = scratch();
    const { code, stderr } = await gauntlet('run', '--candidate', 'passthrough', '--filter', 'pin.float-*', '--revision', '2025-11-25', '--report-dir', dir, '--jobs', '2');
    expect(code).toBe(1);
    // Without a terminal, one line per case, numbered as they finish; the last line is the page to open.
    const lines = stderr.trimEnd().split('\n');
    expect(lines.flatMap((line) => /^\[(\d+)\/2\] /.exec(line)?.[1] ?? [])).toEqual(['1', '2']);
    expect(lines.at(-1)!.startsWith(`report: open ${join(dir, 'report.html')} (`)).toBe(true);
    expect(lines.at(-1)).toMatch(/\(.*report\.json.* beside it\)$/);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      summary: { total: number; passed: number; attacks_held: number; attacks_total: number; exposed: number };
      cases: Array<{ id: string; outcome: string; failure?: string; control_outcome?: string; findings: Array<{ check: string; class: string }> }>;
    };
    expect(report.summary).toMatchObject({ total: 2, attacks_held: 0, attacks_total: 1, exposed: 1 });
    const drift = report.cases.find((c) => c.id === 'pin.float-drift');
    expect(drift).toMatchObject({ outcome: 'fail', failure: 'exposed', control_outcome: 'pass' });
    expect(drift?.findings.every((f) => f.check.length > 0 && ['harm', 'benign', 'record', 'contract'].includes(f.class))).toBe(true);
    expect(report.cases.find((c) => c.id === 'pin.float-literal-kept')).toMatchObject({ outcome: 'pass' });
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure type="exposed"');
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('**Attacks held: 0 of 1**');
    expect(markdown).toContain('pin.float-drift (fail: exposed, not claimed)');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('pin.float-drift');
  });

  it('names the report page by a path from where the run started when it is below it', () => {
    expect(openingLine(join(process.cwd(), 'reports', 'mine')).startsWith(`report: open ${join('reports', 'mine', 'report.html')} (`)).toBe(true);
    expect(openingLine(join(tmpdir(), 'elsewhere'))).toMatch(new RegExp(`^report: open ${join(tmpdir(), 'elsewhere', 'report.html')} `));
  });

  it('index exits 2 when the folder holds no report', async () => {
    const { code, stderr } = await gauntlet('index', '--reports', scratch());
    expect(code).toBe(2);
    expect(stderr).toMatch(/no \*\/report.json under/);
  });

  it('keeps each scenario\'s files with --keep-workdir, and names report folders safely', async () => {
    const dir = scratch();
    const kept = join(dir, 'kept');
    await gauntlet('run', '--candidate', 'passthrough', '--filter', 'pin.float-drift', '--report-dir', join(dir, 'out'), '--keep-workdir', kept);
    expect(readFileSync(join(kept, 'pin.float-drift', 'ledger.jsonl'), 'utf8')).toContain('"ev":"launch"');
    expect(existsSync(join(kept, 'pin.float-drift', 'passthrough.stderr'))).toBe(true);
    expect(basename(reportDirFor('../evil name/x'))).toBe('__evil_name_x');
    expect(dirname(reportDirFor('../evil name/x'))).toBe(dirname(reportDirFor('reference')));
    // Under the directory the run was started from, never inside the installed package.
    expect(reportDirFor('reference', '/a/project')).toBe('/a/project/reports/reference');
  });

  it('starts nothing with the NODE_EXTRA_CA_CERTS of its own environment', async () => {
    const dir = scratch();
    const kept = join(dir, 'kept');
    // Passthrough starts the server with all of its own environment, so what the harness gave it shows.
    await gauntletIn({ ...process.env, NODE_EXTRA_CA_CERTS: kitCaFile }, 'run', '--candidate', 'passthrough', '--filter', 'pin.float-drift', '--report-dir', join(dir, 'out'), '--keep-workdir', kept);
    const launches = readFileSync(join(kept, 'pin.float-drift', 'ledger.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { ev: string; env: Record<string, string> })
      .filter((event) => event.ev === 'launch');
    expect(launches.length).toBeGreaterThan(0);
    for (const { env } of launches) {
      expect(env).toHaveProperty('GAUNTLET_OPERATOR_TOKEN');
      expect(env).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
    }
  });

  it('a filter that selects an attack also runs its control', async () => {
    const dir = scratch();
    await gauntlet('run', '--candidate', 'passthrough', '--filter', 'pin.float-drift', '--report-dir', dir);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { cases: Array<{ id: string }> };
    expect(report.cases.map((c) => c.id).sort()).toEqual(['pin.float-drift', 'pin.float-literal-kept']);
  });

  it('exits 0 when the reference broker passes the selection', async () => {
    const dir = scratch();
    const { code } = await gauntlet('run', '--filter', 'pin.float-*', '--revision', '2025-11-25', '--report-dir', dir);
    expect(code).toBe(0);
  });

  it('serves a hostile server that the official SDK client can use', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', 'rug-pull-description'], stderr: 'pipe' });
    const client = new Client({ name: 'cli-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search_notes', 'read_note', 'write_note']);
      const result = await client.callTool({ name: 'search_notes', arguments: { query: 'budget' } });
      expect(result.content).toEqual([{ type: 'text', text: 'search_notes ran' }]);
    } finally {
      await client.close();
    }
  });
});
