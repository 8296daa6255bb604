// Writes the two programs the suite starts several times a scenario as one file each, from their
// TypeScript sources: the reference broker (src/cli.ts, started for pin and for serve) and the
// kit's hostile server (servers/main.ts, started by each of those). Node then loads one module
// instead of about a hundred (broker) or thirty (kit), which roughly halves the CPU a process
// spends starting. The source maps name the .ts sources, so c8 maps a bundle's coverage as it maps
// dist/. The harness starts a bundle only while it is at least as new as its program's last
// `tsc -b` (harness/paths.ts), so a bundle that may miss an edit is never run.
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

for (const { input, file } of ENTRIES) {
  const bundle = await rolldown({
    cwd: root,
    input,
    platform: 'node',
    // Ajv is loaded lazily through createRequire (src/schema/compile.ts) and stays in node_modules.
    external: [/^node:/, /^ajv(\/|$)/],
    transform: { target: 'node20' },
  });
  await bundle.write({ file, format: 'esm', sourcemap: true });
  await bundle.close();
}
