import { createServer } from 'node:net';

/**
 * A loopback TCP port free at the moment of asking: bound as port 0, then released for the broker
 * to bind. Another process could take it in between; the broker then fails to listen and the
 * channel reports it, which is a failed start, never a wrong verdict.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port bound'))));
    });
  });
}
