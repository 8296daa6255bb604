// Writes the two programs the suite starts several times a scenario as one file each, from their
// TypeScript sources: the reference broker (src/cli.ts, started for pin and for serve) and the
// kit's hostile server (servers/main.ts, started by each of those). Node then loads one module
// instead of about a hundred (broker) or thirty (kit), which roughly halves the CPU a process
// spends starting. The harness starts a bundle only while it is at least as new as its program's
// last `tsc -b`, and not under c8 (harness/paths.ts), so a bundle that may miss an edit is never
// run. docs/reference-broker.md, "One file to start".
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each entry, and where its bundle goes: next to the compiled modules it stands for. */
const ENTRIES = [
  { input: 'src/cli.ts', file: 'dist/src/cli.bundle.js' },
  { input: 'servers/main.ts', file: 'dist/servers/main.bundle.js' },
];

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  // Without the bundler (an install without dev dependencies) both run from dist/ as compiled.
  process.stderr.write('bundle-entries: rolldown is not installed; the broker and the kit run from dist/ unbundled\n');
  process.exit(0);
}

/**
 * The broker loads Ajv lazily through createRequire (src/schema/compile.ts), which a bundler cannot
 * follow. In the bundle that call becomes a plain `require`, which rolldown bundles as a CommonJS
 * module initialised on its first call: still lazy, but one file read instead of about a hundred.
 */
const AJV_LOAD = "createRequire(import.meta.url)('ajv/dist/2020.js')";
const ajvInBundle = {
  name: 'ajv-in-bundle',
  transform(code, id) {
    if (!id.endsWith('/src/schema/compile.ts')) return null;
    // Fails the build rather than leave Ajv out of the bundle unnoticed if the load is rewritten.
    if (!code.includes(AJV_LOAD)) throw new Error(`bundle-entries: ${id} no longer loads Ajv as ${AJV_LOAD}`);
    return { code: code.replace(AJV_LOAD, "require('ajv/dist/2020.js')"), map: null };
  },
};

for (const { input, file } of ENTRIES) {
  const bundle = await rolldown({
    cwd: root,
    input,
    platform: 'node',
    external: [/^node:/],
    plugins: [ajvInBundle],
    transform: { target: 'node20' },
  });
  await bundle.write({ file, format: 'esm', sourcemap: true });
  await bundle.close();
}
