import { createSocket } from 'node:dgram';
import { createInterface } from 'node:readline';
import { TurnTakingZone } from './dns.js';

/**
 * The network enclosure's DNS server, run inside the enclosure (docs/network.md):
 * `dns-responder.js <address> <name>=<address>[,<address>...] ...` answers on UDP port 53 of
 * `<address>` from a TurnTakingZone. It says `ready` on stdout once bound. Each `restart` line on
 * stdin starts every name's turns again and is acknowledged with `restarted`, so the harness knows
 * the next query counts from the first; it exits when stdin closes, so it never outlives the
 * harness that started it.
 */
function main([address, ...assignments]: string[]): void {
  if (address === undefined) throw new Error('usage: dns-responder.js <address> <name>=<address>[,<address>...] ...');
  const zone = new TurnTakingZone(
    Object.fromEntries(
      assignments.map((assignment) => {
        const at = assignment.indexOf('=');
        return [assignment.slice(0, at), assignment.slice(at + 1).split(',')];
      }),
    ),
  );
  const socket = createSocket('udp4');
  socket.on('message', (packet, from) => {
    const answer = zone.answer(packet);
    if (answer !== null) socket.send(answer, from.port, from.address);
  });
  socket.bind(53, address, () => process.stdout.write('ready\n'));
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line !== 'restart') return;
    zone.restart();
    process.stdout.write('restarted\n');
  });
  lines.on('close', () => socket.close());
}

main(process.argv.slice(2));
