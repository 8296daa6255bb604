import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { MAX_STEP_TIMEOUT_MS } from '../../harness/run/options.js';
import { scratchFolders } from './scratch.js';

const bin = join(packageRoot, 'bin', 'gauntlet.js');
const scratch = scratchFolders('gauntlet-options');

/** Runs the CLI; a run that started says "N scenario(s) against" on stderr. */
async function gauntlet(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: packageRoot });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('run options are checked before anything runs (exit 2, a clear message, no scenario started)', () => {
  it.each([
    [['--filter', ''], /--filter needs a value/],
    [['--filter', 'res.result-at-cap', '--step-timeout', '3000000000'], new RegExp(`--step-timeout takes a whole number of milliseconds from 1 to ${MAX_STEP_TIMEOUT_MS}, not "3000000000"`)],
    [['--filter', 'res.result-at-cap', '--step-timeout', '0'], /--step-timeout takes a whole number/],
    [['--filter', 'res.result-at-cap', '--step-timeout', '1e3'], /--step-timeout takes a whole number/],
    [['--canddiate', 'reference'], /^mcp-gauntlet: unknown option --canddiate; did you mean --candidate\?$/m],
    [['--filter=res.result-at-cap', '--step-timout=9'], /unknown option --step-timout; did you mean --step-timeout\?/],
    [['--verbose'], /^mcp-gauntlet: unknown option --verbose$/m],
    [['--candidate', 'mcp-prox', '--filter', 'res.result-at-cap'], /mcp-prox: not a built-in candidate .* and no adapter file of that name; did you mean mcp-proxy\?/],
  ])('refuses %j', async (args, message) => {
    const { code, stderr } = await gauntlet('run', ...args, '--report-dir', scratch());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/scenario\(s\) against/);
  });

  it('refuses a report folder it cannot write (a file), before the run rather than after it', async () => {
    const file = join(scratch(), 'a-file');
    writeFileSync(file, 'not a folder');
    for (const dir of [file, join(file, 'below')]) {
      const { code, stderr } = await gauntlet('run', '--filter', 'res.result-at-cap', '--report-dir', dir);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`the report folder ${dir} cannot be written`));
      expect(stderr).not.toMatch(/scenario\(s\) against/);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('removes the report an earlier run left before this one starts, so none reads as this run’s', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'report.json'), '{"summary":{"passed":9}}');
    // A run that cannot start past the report folder (no scenario matches) leaves no report at all.
    const { code } = await gauntlet('run', '--filter', 'no.such-scenario*', '--report-dir', dir);
    expect(code).toBe(2);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  it('suggests the nearest command, the nearest option of every other command, and the nearest scenario, profile and server', async () => {
    const command = await gauntlet('rnu', '--candidate', 'reference');
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^mcp-gauntlet: unknown command "rnu"; did you mean run\?\nusage:/);
    expect((await gauntlet('frobnicate')).stderr).toMatch(/^mcp-gauntlet: unknown command "frobnicate"\nusage:/);
    for (const [args, message] of [
      [['list', '--jsno'], /unknown option --jsno; did you mean --json\?/],
      [['repro', 'pin.description-reworded', '--ot', scratch()], /unknown option --ot; did you mean --out\?/],
      [['smoke', '--candiate', 'passthrough'], /unknown option --candiate; did you mean --candidate\?/],
      [['merge', '--report-dri', scratch(), scratch()], /unknown option --report-dri; did you mean --report-dir\?/],
      [['index', '--report', scratch()], /unknown option --report; did you mean --reports\?/],
      [['run', '--filter', 'pin.description-rewordd'], /no scenario matches pin\.description-rewordd; did you mean pin\.description-reworded\?/],
      [['run', '--profile', 'cor'], /no profile named cor; profiles: .*; did you mean core\?/],
      [['repro', 'pin.description-rewordd', '--out', scratch()], /no scenario "pin\.description-rewordd"; did you mean pin\.description-reworded\?/],
      [['serve', 'rug-pull-descripton'], /unknown server id "rug-pull-descripton"; did you mean rug-pull-description\?/],
    ] as const) {
      const { code, stderr } = await gauntlet(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(message);
    }
  });
});
