import { appendFileSync, writeFileSync } from 'node:fs';
import { catalogue, findServer } from '../../servers/catalogue.js';
import { runServer } from '../../servers/main.js';
import { didYouMean } from '../nearest.js';
import { Canary, type CanaryRequest } from '../observe/canary.js';
import { UsageError } from '../run/options.js';

/**
 * `gauntlet serve <server-id> [--canary FILE] ...`: a hostile server (servers/main.ts), and with
 * `--canary FILE` the canary listener the harness runs beside it in a run, here in the server's
 * own process: on 127.0.0.1, a port of its own given to the server as `canary_port`, each
 * request it receives written to FILE as a JSON line. It is for a reproduction folder
 * (`gauntlet repro`), where no harness runs one: a reviewer reads FILE to see whether the canary
 * was reached. Sharing the server's process, it stops when the server stops, whatever stops it.
 */
export async function serveCommand(argv: string[]): Promise<number> {
  const [serverId] = argv;
  if (serverId !== undefined && !serverId.startsWith('-') && findServer(serverId) === undefined) {
    throw new UsageError(`unknown server id ${JSON.stringify(serverId)}${didYouMean(serverId, catalogue.map((entry) => entry.id))} (gauntlet list --servers names them)`);
  }
  const at = argv.indexOf('--canary');
  if (at === -1) return runServer(argv);
  const file = argv[at + 1];
  if (file === undefined || file.startsWith('--')) throw new UsageError('--canary needs the file to record its requests in');
  const rest = [...argv.slice(0, at), ...argv.slice(at + 2)];
  if (rest.some((arg) => arg.startsWith('canary_port='))) throw new UsageError('--canary gives the server its own canary_port; give one or the other');
  // The file's first line says where the canary listens, written before anyone but this process knows it.
  const canary = await Canary.start((record: CanaryRequest) => appendFileSync(file, `${JSON.stringify({ ev: 'request', ...record })}\n`));
  try {
    writeFileSync(file, `${JSON.stringify({ ev: 'listening', port: canary.port })}\n`);
    return await runServer([...rest, `canary_port=${canary.port}`]);
  } finally {
    await canary.stop();
  }
}
