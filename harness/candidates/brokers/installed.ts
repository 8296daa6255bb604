import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../paths.js';

/** A broker installed from npm as a dev dependency: where it is and which version it is. */
export interface InstalledBroker {
  version: string;
  /**
   * The real path of one of its `bin` entries, run with this Node: a CLI that runs only when
   * `process.argv[1]` is its own module's URL would not run from a path through a symlink.
   */
  bin: string;
}

/**
 * Reads the installed package's own manifest, so the version an adapter declares is the one
 * that runs, not the one someone remembered to write down.
 */
export function installedBroker(packageName: string, binName: string): InstalledBroker {
  const dir = join(packageRoot, 'node_modules', ...packageName.split('/'));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (bin === undefined) throw new Error(`${packageName} ${manifest.version} has no bin entry ${binName}`);
  return { version: manifest.version, bin: realpathSync(join(dir, bin)) };
}
