import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';

const run = promisify(execFile);
const example = join(packageRoot, 'examples', 'external-adapter');

/**
 * The example as its author would have it after `npm install` in its folder: its files, and
 * node_modules/mcp-gauntlet a link to this package (what npm makes of its `file:` dependency).
 * Anywhere else on disk, so the only way `mcp-gauntlet/adapter` resolves is the package's exports.
 */
let installed: string;
beforeAll(() => {
  installed = mkdtempSync(join(tmpdir(), 'gauntlet-external-'));
  for (const file of readdirSync(example).filter((name) => name.endsWith('.js') || name === 'package.json')) copyFileSync(join(example, file), join(installed, file));
  mkdirSync(join(installed, 'node_modules'));
  symlinkSync(packageRoot, join(installed, 'node_modules', 'mcp-gauntlet'), 'dir');
});
afterAll(() => rmSync(installed, { recursive: true, force: true }));

interface Report {
  candidate: { name: string };
  cases: Array<{ id: string; outcome: string; failure?: string }>;
}

describe('an adapter outside the repository', () => {
  it('imports nothing but the public module', () => {
    const source = readFileSync(join(example, 'adapter.js'), 'utf8');
    const specifiers = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(specifiers.filter((specifier) => !specifier!.startsWith('node:'))).toEqual(['mcp-gauntlet/adapter']);
  });

  it('resolves the package by its own name, with type declarations, through exports', async () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> };
    for (const entry of ['.', './adapter']) expect(existsSync(join(packageRoot, manifest.exports[entry]!.types)), `${entry} types`).toBe(true);
    // Self-reference: inside this package, its own name resolves through the same exports map.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('mcp-gauntlet/adapter'); console.log(Object.keys(m).sort().join(','))"], { cwd: packageRoot });
    expect(stdout.trim().split(',')).toEqual(expect.arrayContaining(['ADAPTER_PROTOCOL', 'FEATURES', 'spawnChannel', 'throughPrefix']));
  });

  const gauntlet = (filter: string, out: string) =>
    run(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), 'run', '--candidate', join(installed, 'adapter.js'), '--filter', filter, '--report-dir', out], { cwd: installed });
  const outcomes = (out: string): Record<string, string> => {
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.candidate.name).toBe('external-proxy');
    return Object.fromEntries(report.cases.map((c) => [c.id, c.failure === undefined ? c.outcome : `${c.outcome}: ${c.failure}`]));
  };

  it('is loaded by the CLI and gets verdicts: the attack exposed, its control passed', async () => {
    const out = join(installed, 'pin');
    // Exit 1: the proxy is exposed, as it must be.
    await expect(gauntlet('pin.description-reworded', out)).rejects.toMatchObject({ code: 1 });
    expect(outcomes(out)).toEqual({ 'pin.description-reworded': 'fail: exposed', 'pin.description-unchanged': 'pass' });
  });

  it('has a server it would have to dial by URL unsupported, as its declaration says, not an error', async () => {
    const out = join(installed, 'url');
    // Exit 2: nothing could be judged.
    await expect(gauntlet('crd.http-server-reached', out)).rejects.toMatchObject({ code: 2 });
    expect(outcomes(out)).toEqual({ 'crd.http-server-reached': 'unsupported' });
  });
});
