import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BASE_REVISION, type Revision } from '../../agent/revisions.js';
import { packageRoot } from '../../paths.js';
import { AdapterError } from '../adapter-error.js';

/**
 * The MCP revisions a broker installed from npm serves an agent: each is built on an MCP SDK that
 * predates 2026-07-28 (the pinned versions negotiate 2025-11-25 at most), so its cases of
 * 2026-07-28 are unsupported until an adapter for a version that speaks it says otherwise.
 * Measured on 2026-12-06 by declaring 2026-07-28 for each and running a 2026-07-28 control
 * (agt.allowed-tool-usable): mcp-proxy 6.7.19 and mcp-remote 0.15.1 closed the agent's channel at
 * its first request (server/discover, no initialize before it), mcp-hub 4.2.1 answered it -32601,
 * civic-passthrough 0.12.1 did not answer within 30 s. supergateway, which relays messages
 * unread, passed every 2026-07-28 control and declares both (supergateway.ts).
 */
export const SDK_REVISIONS: readonly Revision[] = [BASE_REVISION];

/** A broker installed from npm: where it is and which version it is. */
export interface InstalledBroker {
  version: string;
  /**
   * The real path of one of its `bin` entries, run with this Node: a CLI that runs only when
   * `process.argv[1]` is its own module's URL would not run from a path through a symlink.
   */
  bin: string;
}

/**
 * The version a built-in adapter was written against: the suite pins each broker it has an
 * adapter for as a dev dependency (its committed report is of that version), and npm keeps the
 * pins in the manifest it installs.
 */
export function writtenFor(packageName: string): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const version = manifest.devDependencies?.[packageName];
  if (version === undefined) throw new Error(`mcp-gauntlet pins no version of ${packageName} (package.json devDependencies)`);
  return version;
}

/**
 * The folders Node's module resolution looks in for the package, from the user's project (the
 * current directory) first, then from the suite's own folder: installed as a dependency, the
 * suite is in the project's node_modules and the broker beside it; in the suite's checkout, the
 * broker is one of its dev dependencies. The folders are searched for the package's own manifest
 * rather than `require.resolve`d: a package whose `exports` leaves out package.json resolves no
 * path to it.
 */
function brokerSearchPaths(packageName: string, cwd: string = process.cwd()): string[] {
  const fromProject = createRequire(join(cwd, 'package.json')).resolve.paths(packageName) ?? [];
  const fromSuite = createRequire(import.meta.url).resolve.paths(packageName) ?? [];
  return [...new Set([...fromProject, ...fromSuite])];
}

/** The folder `packageName` is installed in: the first along `searchPaths` (node_modules folders, nearest first) that holds it. */
export function installedPackageFolder(packageName: string, searchPaths: readonly string[]): string | undefined {
  return searchPaths.map((folder) => join(folder, ...packageName.split('/'))).find((folder) => existsSync(join(folder, 'package.json')));
}

/**
 * Finds the installed package and reads its own manifest, so the version an adapter declares is
 * the one that runs, not the one someone remembered to write down. A package that is not
 * installed is an AdapterError saying what to install: the run refuses to start (exit 2) and
 * judges nothing, where a missing binary would otherwise fail every start and read as a broker
 * that blocks everything.
 */
export function installedBroker(packageName: string, binName: string, cwd: string = process.cwd()): InstalledBroker {
  const dir = installedPackageFolder(packageName, brokerSearchPaths(packageName, cwd));
  if (dir === undefined) {
    throw new AdapterError(
      `the broker ${packageName} is not installed where this run can find it (from ${cwd}, then from mcp-gauntlet's own folder): ` +
        `install the version its adapter was written for, \`npm install --save-dev ${packageName}@${writtenFor(packageName)}\``,
    );
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName];
  if (bin === undefined) throw new AdapterError(`${packageName} ${manifest.version} (${dir}) has no bin entry ${binName}`);
  return { version: manifest.version, bin: realpathSync(join(dir, bin)) };
}
