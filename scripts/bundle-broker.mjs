// Writes the reference broker as one file, dist/src/cli.bundle.js, from src/*.ts. Node loads one
// module instead of about a hundred, which halves the CPU a broker process spends starting; the
// suite starts two per scenario (pin, serve). The source map names src/*.ts, so c8 maps the
// bundle's coverage as it maps dist/src. The harness uses the bundle only while it is at least as
// new as the last `tsc -b` of src (harness/paths.ts), so a stale bundle is never run.
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch {
  // Without the bundler (an install without dev dependencies) the broker runs from dist/src.
  process.stderr.write('bundle-broker: rolldown is not installed; the broker runs from dist/src/cli.js\n');
  process.exit(0);
}

const bundle = await rolldown({
  cwd: root,
  input: 'src/cli.ts',
  platform: 'node',
  // Ajv is loaded lazily through createRequire (src/schema/compile.ts) and stays in node_modules.
  external: [/^node:/, /^ajv(\/|$)/],
  transform: { target: 'node20' },
});
await bundle.write({ file: 'dist/src/cli.bundle.js', format: 'esm', sourcemap: true });
await bundle.close();
