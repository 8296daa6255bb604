import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { scratchFolders } from './scratch.js';

const bin = join(packageRoot, 'bin', 'gauntlet.js');
const scratch = scratchFolders('gauntlet-interrupt');

/** Whether this machine makes network enclosures (docs/network.md); without, an HTTP pair on loopback stands in. */
const enclosures = spawnSync('unshare', ['-rnm', 'true']).status === 0;
/** A scenario that holds an HTTP server (in an enclosure, where the machine makes them) while it runs. */
const scenario = enclosures ? 'net.private-opted-in' : 'crd.http-server-reached';

/** Every live process from /proc: its parent, command line and network namespace. */
function processes(): Map<number, { ppid: number; command: string; netns: string }> {
  const all = new Map<number, { ppid: number; command: string; netns: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || state === 'X') continue;
      all.set(Number(entry), { ppid: Number(ppid), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '), netns: readlinkSync(`/proc/${entry}/ns/net`) });
    } catch {
      // Gone since the listing.
    }
  }
  return all;
}

function descendants(root: number): Map<number, { command: string; netns: string }> {
  const all = processes();
  const found = new Map<number, { command: string; netns: string }>();
  for (const [pid, info] of all) {
    for (let up = info.ppid; up > 1; up = all.get(up)?.ppid ?? 0) {
      if (up === root) found.set(pid, info);
    }
  }
  return found;
}

/** Resolves once `test` holds of the run's descendants, read from /proc; observed, with a deadline. */
async function whenDescendants(root: number, test: (found: Map<number, { command: string; netns: string }>) => boolean): Promise<Map<number, { command: string; netns: string }>> {
  const until = Date.now() + 60_000;
  for (;;) {
    const found = descendants(root);
    if (test(found)) return found;
    if (Date.now() > until) throw new Error(`the run never held what the test waits for: ${[...found.values()].map((p) => p.command).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const HOLDER = 'sleep 2147483647';

describe('an interrupted run', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('on %s leaves no process, namespace or workdir, and writes a partial report marked incomplete (exit 2)', async (signal) => {
    const reportDir = scratch();
    const tmp = scratch();
    mkdirSync(reportDir, { recursive: true });
    // An older report that reads all-pass: it must not survive as this run's.
    writeFileSync(join(reportDir, 'report.json'), JSON.stringify({ summary: { total: 9, passed: 9 } }));
    writeFileSync(join(reportDir, 'report.md'), 'all passed\n');
    const run = spawn(process.execPath, [bin, 'run', '--candidate', 'reference', '--filter', scenario, '--report-dir', reportDir], {
      cwd: packageRoot,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
    const stderr: string[] = [];
    const lines = createInterface({ input: run.stderr });
    // The run's first line says the scenario is about to start.
    await new Promise<void>((resolve) =>
      lines.on('line', (line) => {
        stderr.push(line);
        if (line.startsWith('mcp-gauntlet: 1 scenario(s)')) resolve();
      }),
    );
    // Then its HTTP server (and the enclosure's holder) are up: the signal comes while they run.
    const held = await whenDescendants(run.pid!, (found) => {
      const commands = [...found.values()].map((p) => p.command);
      return commands.some((c) => c.includes('--http')) && (!enclosures || commands.includes(`${HOLDER} `));
    });
    const namespaces = new Set([...held.values()].filter((p) => p.command === `${HOLDER} `).map((p) => p.netns));
    expect(namespaces.size).toBe(enclosures ? 1 : 0);
    run.kill(signal);
    expect(await exited).toBe(2);

    // A process the run killed as it left may take a moment to be gone; one left behind stays.
    const leftovers = (): string[] => {
      const after = processes();
      return [...after.entries()].filter(([pid, p]) => held.has(pid) || namespaces.has(p.netns) || p.command.includes(tmp)).map(([pid, p]) => `${pid} ${p.command}`);
    };
    const until = Date.now() + 5_000;
    while (leftovers().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(leftovers(), stderr.join('\n')).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);

    expect(stderr.join('\n')).toContain(`${signal}: stopping`);
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as { incomplete?: { reason: string; not_run: string[] }; cases: Array<{ id: string }> };
    // The scenario cut short is not judged: the candidate did not get to do what it would have.
    expect(report.incomplete).toEqual({ reason: signal, not_run: [scenario] });
    expect(report.cases).toEqual([]);
    expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toMatch(/INCOMPLETE.*interrupted/);
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('INCOMPLETE');
    expect(existsSync(join(reportDir, 'report.json.partial'))).toBe(false);
  }, 120_000);
});
