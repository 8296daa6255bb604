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
/** Compiled entry points: every process the harness starts runs compiled JavaScript. */
export const serverEntry = join(packageRoot, 'dist', 'servers', 'main.js');
/**
 * The reference broker's entry: its one-file bundle (scripts/bundle-broker.mjs, written by
 * `npm run build`) while that is at least as new as the last `tsc -b` of src/, else the compiled
 * modules. `tsc -b` alone rewrites dist/src.tsbuildinfo whenever src/ changed, so a bundle older
 * than it may miss an edit and is not used; the modules are the same code, only slower to start.
 */
export const brokerEntry = freshBundleOr(join(packageRoot, 'dist', 'src', 'cli.bundle.js'), join(packageRoot, 'dist', 'src.tsbuildinfo'), join(packageRoot, 'dist', 'src', 'cli.js'));
/** The certificate authority that issued the kit's HTTPS certificate (servers/kit/tls/README.md). */
export const kitCaFile = join(packageRoot, 'servers', 'kit', 'tls', 'ca.pem');
export const passthroughEntry = join(packageRoot, 'dist', 'harness', 'candidates', 'passthrough-proxy.js');
/** The relay that carries the agent's lines to a broker's URL inside a network enclosure. */
export const httpRelayEntry = join(packageRoot, 'dist', 'harness', 'agent', 'http-channel.js');
export const legacySseRelayEntry = join(packageRoot, 'dist', 'harness', 'agent', 'legacy-sse-relay.js');
/** The network enclosure's DNS server (harness/observe/dns-responder.ts). */
export const dnsResponderEntry = join(packageRoot, 'dist', 'harness', 'observe', 'dns-responder.js');

function freshBundleOr(bundle: string, buildInfo: string, modules: string): string {
  const modified = (path: string): number | undefined => statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  const bundled = modified(bundle);
  const compiled = modified(buildInfo);
  return bundled !== undefined && compiled !== undefined && bundled >= compiled ? bundle : modules;
}

/**
 * The folder a candidate's reports go to by default: its name made safe for any file system (a
 * name is the adapter's to choose: it may hold a slash, `..`, spaces or anything else).
 */
export function reportDirFor(candidate: string): string {
  const safe = candidate.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 100) || '_';
  return resolve(packageRoot, 'reports', safe);
}
