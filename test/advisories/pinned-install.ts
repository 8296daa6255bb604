import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { packageRoot } from '../../harness/paths.js';

/** Where each pinned version is installed once, beside npm's own caches, and reused by later runs. */
const CACHE = join(packageRoot, 'node_modules', '.cache', 'mcp-gauntlet-advisories');

/**
 * Installs exactly `name@version` (with its own dependencies as npm resolves them, no install
 * scripts run) into a folder of its own, and returns that folder: the one whose node_modules an
 * adapter's `installedFrom` names. A vulnerable version never lands in the suite's own
 * node_modules, where it could be run by mistake as the broker the suite pins.
 */
export async function pinnedInstall(name: string, version: string): Promise<string> {
  const folder = join(CACHE, `${name.replace('/', '+')}@${version}`);
  const manifest = join(folder, 'node_modules', ...name.split('/'), 'package.json');
  if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === version) return folder;
  await mkdir(folder, { recursive: true });
  await execa('npm', ['install', '--prefix', folder, '--no-save', '--package-lock=false', '--ignore-scripts', '--no-audit', '--no-fund', `${name}@${version}`], { timeout: 240_000 });
  const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  if (installed !== version) throw new Error(`npm installed ${name}@${installed}, not the pinned ${version}`);
  return folder;
}
