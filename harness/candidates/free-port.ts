import { createServer } from 'node:net';

/**
 * Ports this process handed out lately, oldest first. Scenarios running in parallel (`--jobs`)
 * each ask for a port and release it for their broker to bind: a port handed out moments ago may
 * not be bound yet, so it is not handed out again until many others have been.
 */
const handedOut: number[] = [];
const REMEMBERED = 512;
const ATTEMPTS = 20;

function boundAndReleased(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port bound'))));
    });
  });
}

/**
 * A loopback TCP port free at the moment of asking: bound as port 0, then released for the broker
 * to bind, and not one this process handed out lately. Another process could take it in between;
 * the broker then fails to listen and the channel reports it, which is a failed start, never a
 * wrong verdict.
 */
export async function freeLoopbackPort(): Promise<number> {
  let port = await boundAndReleased();
  for (let attempt = 1; attempt < ATTEMPTS && handedOut.includes(port); attempt++) port = await boundAndReleased();
  handedOut.push(port);
  if (handedOut.length > REMEMBERED) handedOut.shift();
  return port;
}
