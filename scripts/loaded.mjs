// Runs a command while busy processes keep every core of the machine saturated, and says how long
// it took and what the load average was: the way to show that verdicts and tests hold on a loaded
// machine, as shared CI runners are (`npm run test:loaded`; docs/ci.md, "A loaded machine").
//
//   node scripts/loaded.mjs [--busy N] [--max-seconds S] -- COMMAND [ARG...]
//
// N busy processes (default two per core) spin until the command ends, each also bounded by S
// seconds (default 3600) on its own clock, so none outlives a killed run. The command's exit code
// is this script's; the summary goes to stderr.
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node scripts/loaded.mjs [--busy N] [--max-seconds S] -- COMMAND [ARG...]';
/** How often the 1-minute load average is read while the command runs. */
const SAMPLE_MS = 5_000;

function whole(name, text, fallback) {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`loaded: --${name} must be a positive whole number, not ${text}\n${USAGE}\n`);
    process.exit(2);
  }
  return value;
}

const { values, positionals } = parseArgs({ options: { busy: { type: 'string' }, 'max-seconds': { type: 'string' } }, allowPositionals: true });
const [command, ...args] = positionals;
if (command === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const cores = availableParallelism();
const busy = whole('busy', values.busy, 2 * cores);
const maxMs = 1_000 * whole('max-seconds', values['max-seconds'], 3_600);

// A loop that reads the clock, not a timer: a timer could never fire inside a busy loop.
const spin = `const end = Date.now() + ${maxMs}; while (Date.now() < end);`;
const spinners = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }));
const spinnersGone = Promise.all(spinners.map((spinner) => new Promise((resolve) => spinner.once('exit', resolve))));
const stopSpinners = () => {
  for (const spinner of spinners) if (spinner.exitCode === null && spinner.signalCode === null) spinner.kill('SIGKILL');
};
// Whatever ends this script (an error, a signal it did not handle) ends the spinners with it.
process.on('exit', stopSpinners);

const samples = [loadavg()[0]];
const sampler = setInterval(() => samples.push(loadavg()[0]), SAMPLE_MS);
const started = Date.now();
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

const { code, signal, error } = await new Promise((resolve) => {
  child.once('error', (failure) => resolve({ code: null, signal: null, error: failure }));
  child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
});
clearInterval(sampler);
samples.push(loadavg()[0]);
stopSpinners();
// Reaped before this script exits, so nothing it started is left even as a zombie.
await spinnersGone;
const seconds = ((Date.now() - started) / 1_000).toFixed(1);
const load = `1-minute load average from ${Math.min(...samples).toFixed(1)} to ${Math.max(...samples).toFixed(1)}`;
const ended = error ? `could not start: ${error.message}` : signal ? `was killed by ${signal}` : `exited with ${code}`;
process.stderr.write(`loaded: ${busy} busy processes (pids ${spinners.map((s) => s.pid).join(' ')}) on ${cores} cores; the command ${ended} after ${seconds} s; ${load}\n`);
process.exit(code ?? 1);
