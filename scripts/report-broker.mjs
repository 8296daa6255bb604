// `npm run report:broker -- CANDIDATE...`: the committed reports of this repository, written only
// when asked. Each candidate (a built-in name or an adapter's path) is run over the whole catalogue
// into reports/brokers/<its declared name>/, and reports/brokers/index.html is made again from
// every report there. A run's own `gauntlet run` writes reports/<candidate>/ under where it runs,
// which git ignores, so the README's first command never overwrites what is committed.
// Run `npm run generate` afterwards for the README's broker table.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCandidate } from '../dist/harness/candidates/registry.js';
import { reportFolderName } from '../dist/harness/paths.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const brokers = join(root, 'reports', 'brokers');
const gauntlet = join(root, 'bin', 'gauntlet.js');

const candidates = process.argv.slice(2);
if (candidates.length === 0) {
  process.stderr.write('usage: npm run report:broker -- CANDIDATE... (a built-in name or an adapter\'s path)\n');
  process.exit(2);
}

/** Runs the CLI as a user would, its output passed through; the exit code it ended with. */
function cli(...args) {
  const { status, signal } = spawnSync(process.execPath, [gauntlet, ...args], { cwd: root, stdio: 'inherit' });
  return status ?? (signal === null ? 2 : 128);
}

for (const candidate of candidates) {
  // The folder is named as the report is (its declared name), so it is known only once loaded.
  const loaded = await loadCandidate(candidate).catch((error) => {
    process.stderr.write(`report:broker: ${error.message}\n`);
    process.exit(2);
  });
  const folder = reportFolderName(loaded.info.name);
  await loaded.dispose?.();
  // 0 or 1 is a judged run (a broker may well fail scenarios); 2 is a run that could not be judged.
  const code = cli('run', '--candidate', candidate, '--report-dir', join(brokers, folder));
  if (code > 1) {
    process.stderr.write(`report:broker: ${candidate} could not be judged (exit ${code}); reports/brokers/${folder}/ is left as that run left it\n`);
    process.exit(code);
  }
}
process.exit(cli('index', '--reports', brokers));
