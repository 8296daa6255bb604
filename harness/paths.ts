import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, found by walking up from this module. The harness runs both from
 * compiled `dist/harness/` and from sources under vitest, so a fixed `../..` would be wrong
 * in one of the two.
 */
function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scenarios'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`mcp-gauntlet: no package root above ${start}`);
    dir = parent;
  }
}

export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
export const scenariosDir = join(packageRoot, 'scenarios');
export const requirementsFile = join(packageRoot, 'docs', 'requirements.md');
/** Generated from the skeleton and the expectation modules (harness/expect/generate.ts). */
export const scenarioSchemaFile = join(packageRoot, 'harness', 'scenario', 'scenario.schema.json');
export const scenarioSkeletonFile = join(packageRoot, 'harness', 'scenario', 'skeleton.schema.json');
export const expectationsDocFile = join(packageRoot, 'docs', 'expectations.md');
/** Generated from taxonomies/*.yaml (harness/taxonomies-doc.ts). */
export const taxonomiesDocFile = join(packageRoot, 'docs', 'taxonomies.md');
/** Compiled entry points: every process the harness starts runs compiled JavaScript. */
export const serverEntry = freshBundleOr('servers', 'main', 'main.bundle.cjs');
/** The broker's bundle is started by its loader, which hands V8 the bundle's code cache. */
export const brokerEntry = freshBundleOr('src', 'cli', 'cli.start.cjs');
/** The certificate authority that issued the kit's HTTPS certificate (servers/kit/tls/README.md). */
export const kitCaFile = join(packageRoot, 'servers', 'kit', 'tls', 'ca.pem');
export const passthroughEntry = join(packageRoot, 'dist', 'harness', 'candidates', 'passthrough-proxy.js');
/** The adapters' bridge from a command server to Streamable HTTP, for brokers that dial URLs only (harness/candidates/brokers/stdio-bridge.ts). */
export const stdioBridgeEntry = join(packageRoot, 'dist', 'harness', 'candidates', 'brokers', 'stdio-bridge.js');
/** The relay that carries the agent's lines to a broker's URL inside a network enclosure. */
export const httpRelayEntry = join(packageRoot, 'dist', 'harness', 'agent', 'http-channel.js');
export const legacySseRelayEntry = join(packageRoot, 'dist', 'harness', 'agent', 'legacy-sse-relay.js');
/** The network enclosure's DNS server (harness/observe/dns-responder.ts). */
export const dnsResponderEntry = join(packageRoot, 'dist', 'harness', 'observe', 'dns-responder.js');
/** What every URL opener in a broker's way runs (harness/observe/url-openers.ts). */
export const urlOpenerRecorderEntry = join(packageRoot, 'dist', 'harness', 'observe', 'url-opener-recorder.js');

/**
 * A program's entry, `dist/<program>/<entry>.js`, or the file that starts its one-file bundle,
 * `dist/<program>/<started>` (scripts/bundle-entries.mjs, written by `npm run build`), while that is at least as new as the
 * program's last `tsc -b`. `tsc -b` rewrites dist/<program>.tsbuildinfo whenever the program's
 * sources changed, so an older bundle may miss an edit and is not used: the compiled modules are
 * the same code, only slower to start. Under c8 (NODE_V8_COVERAGE set) the modules are used too:
 * c8 does not map a bundle's coverage back to its sources.
 */
function freshBundleOr(program: 'src' | 'servers', entry: string, started: string): string {
  const modified = (path: string): number | undefined => statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  const bundle = join(packageRoot, 'dist', program, started);
  const bundled = modified(bundle);
  const compiled = modified(join(packageRoot, 'dist', `${program}.tsbuildinfo`));
  const fresh = bundled !== undefined && compiled !== undefined && bundled >= compiled;
  return fresh && process.env.NODE_V8_COVERAGE === undefined ? bundle : join(packageRoot, 'dist', program, `${entry}.js`);
}

/**
 * A candidate's name as the name of its report folder, safe for any file system: a name is the
 * adapter's to choose, and may hold a slash, `..`, spaces or anything else.
 */
export function reportFolderName(candidate: string): string {
  return candidate.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 100) || '_';
}

/**
 * The folder a candidate's reports go to by default: `reports/<name>` under the current directory,
 * where the person or CI job that ran it looks (installed as a dependency, the package's own
 * folder is hidden in node_modules and wiped by the next install).
 */
export function reportDirFor(candidate: string, cwd: string = process.cwd()): string {
  return resolve(cwd, 'reports', reportFolderName(candidate));
}
