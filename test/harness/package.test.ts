import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { execa, type Options, type Result } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writtenFor } from '../../harness/candidates/brokers/installed.js';
import { packageRoot } from '../../harness/paths.js';
import { REPORT_LOCK } from '../../harness/run/report-dir.js';

// The package as a user gets it: `npm pack`, then `npm install <tarball>` in an empty project, and
// the CLI run there. A test that links the repository (test/harness/external-adapter.test.ts) sees
// every file of the checkout, so it cannot tell that one the CLI reads was left out of the tarball.

/** Generous: npm and the CLI start slowly on a loaded machine, and a bound hit fails the test rather than hanging it. */
const NPM_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 180_000;
const CLI_TEST_MS = RUN_TIMEOUT_MS + 10_000;

/** The example adapter (and the proxy it starts) that the project holds, as a broker's own repository would. */
const example = join(packageRoot, 'examples', 'external-adapter');

let scratch: string;
let project: string;
let packed: string[];

/**
 * This environment without what npm sets for the script it runs (`npm test`): its
 * npm_config_local_prefix and npm_package_* name this checkout, and an `npm install` in the
 * project must act as one typed there, never on the checkout; and its PATH without this
 * checkout's node_modules/.bin, so that the `gauntlet` run is the project's or none.
 */
const outsideNpm = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  PATH: (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== packageRoot && !dir.startsWith(`${packageRoot}${sep}`)).join(delimiter),
};

/**
 * Runs a command in its own process group and kills the whole group however it ends: `npx` starts
 * the CLI under a shell, and the CLI starts brokers and servers, none of which may outlive the test.
 */
async function inGroup(command: string, args: string[], options: Options & { timeout: number }): Promise<Result> {
  const env = { ...outsideNpm, ...options.env };
  const child = execa(command, args, { ...options, env, extendEnv: false, detached: true, reject: false, forceKillAfterDelay: 2_000 });
  try {
    return await child;
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  }
}

const gauntlet = (args: string[]) => inGroup('npx', ['--no', '--', 'gauntlet', ...args], { cwd: project, timeout: RUN_TIMEOUT_MS, env: { CI: 'true' } });

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'gauntlet-package-'));
  const started = Date.now();
  // dist/ is built by `pretest`: packing runs no script.
  const pack = await inGroup('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: packageRoot, timeout: NPM_TIMEOUT_MS });
  expect(pack.exitCode, pack.stderr as string).toBe(0);
  const [entry] = JSON.parse(pack.stdout as string) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = entry!.files.map((file) => file.path);
  project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'a-broker', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  // From npm's cache, filled by `npm ci`: the registry is asked only for what it lacks.
  const install = await inGroup('npm', ['install', join(scratch, entry!.filename), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    timeout: NPM_TIMEOUT_MS,
  });
  expect(install.exitCode, install.stderr as string).toBe(0);
  // Measured here for the README's package section: packing and an install from the cache.
  process.stderr.write(`package.test: npm pack and npm install took ${Date.now() - started} ms\n`);
  for (const file of ['adapter.js', 'proxy.js']) copyFileSync(join(example, file), join(project, file));
}, NPM_TIMEOUT_MS * 2 + 10_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Every TypeScript source below a folder of the repository. */
function sources(dir: string): string[] {
  return readdirSync(join(packageRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

/**
 * Read from the checkout only, never by the installed CLI: the maintainers' scripts that write the
 * README's broker table from the committed reports, and the catalogue cache's key, which hashes
 * package-lock.json where there is one (npm never packs it) and keeps the cache in node_modules.
 */
const CHECKOUT_ONLY = ['README.md', 'reports/brokers', 'package-lock.json', 'node_modules/.cache/mcp-gauntlet'];

describe('the package as npm packs it', () => {
  it('holds every file the code finds under the package root', () => {
    // Each `join(packageRoot, 'a', 'b', ...)` with literal parts, in every program of the package.
    const read = new Map<string, string>();
    for (const file of ['harness', 'servers', 'src', 'bench'].flatMap(sources)) {
      const text = readFileSync(join(packageRoot, file), 'utf8');
      for (const match of text.matchAll(/join\(packageRoot((?:,\s*'[^']+')+)\s*[,)]/g)) {
        read.set([...match[1]!.matchAll(/'([^']+)'/g)].map((part) => part[1]).join('/'), file);
      }
    }
    expect(read.size).toBeGreaterThan(10);
    const missing = [...read]
      .filter(([path]) => !CHECKOUT_ONLY.includes(path))
      .filter(([path]) => !packed.some((file) => file === path || file.startsWith(`${path}/`)))
      .map(([path, by]) => `${path} (read by ${by})`);
    expect(missing, 'files the installed CLI reads that package.json "files" leaves out').toEqual([]);
  });

  it('holds each folder the CLI lists at run time, whole', () => {
    for (const dir of ['scenarios', 'profiles', 'protocol', 'adapters', 'servers/kit/tls']) {
      const inCheckout = readdirSync(join(packageRoot, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => statSync(join(packageRoot, dir, name)).isFile())
        .map((name) => `${dir}/${name.split(sep).join('/')}`);
      expect(inCheckout.filter((file) => !packed.includes(file)), dir).toEqual([]);
    }
  });

  it('runs `gauntlet --help` from the project', async () => {
    const help = await gauntlet(['--help']);
    expect(help.exitCode, help.stderr as string).toBe(0);
    expect(`${help.stdout as string}${help.stderr as string}`).toContain('gauntlet run');
  }, CLI_TEST_MS);

  it('refuses a built-in broker the project has not installed, saying what to install, and judges nothing', async () => {
    // The tarball's dev dependencies are not installed with it: mcp-proxy is nowhere to be found.
    const run = await gauntlet(['run', '--candidate', 'mcp-proxy', '--filter', 'pin.description-reworded']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`npm install --save-dev mcp-proxy@${writtenFor('mcp-proxy')}`);
    expect(existsSync(join(project, 'reports', 'mcp-proxy', 'report.json'))).toBe(false);
  }, CLI_TEST_MS);

  it('smokes the project\'s adapter', async () => {
    const smoke = await gauntlet(['smoke', '--candidate', './adapter.js']);
    expect(smoke.exitCode, `${smoke.stdout as string}\n${smoke.stderr as string}`).toBe(0);
  }, CLI_TEST_MS);

  it('runs the project\'s adapter and writes its reports under ./reports/<candidate> there', async () => {
    const run = await gauntlet(['run', '--candidate', './adapter.js', '--filter', 'pin.description-reworded']);
    // Exit 1: the plain proxy is exposed on the attack, as it must be.
    expect(run.exitCode, run.stderr as string).toBe(1);
    const reports = join(project, 'reports', 'external-proxy');
    expect(readdirSync(reports).sort()).toEqual(expect.arrayContaining(['junit.xml', 'report.html', 'report.json', 'report.md']));
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { cases: Array<{ id: string; outcome: string; failure?: string }> };
    expect(Object.fromEntries(report.cases.map((c) => [c.id, c.failure ?? c.outcome]))).toEqual({
      'pin.description-reworded': 'exposed',
      'pin.description-unchanged': 'pass',
    });
    // Nothing is written inside the installed package, and the run let go of its folder.
    expect(existsSync(join(project, 'node_modules', 'mcp-gauntlet', 'reports'))).toBe(false);
    expect(existsSync(join(reports, REPORT_LOCK))).toBe(false);
  }, CLI_TEST_MS);
});
