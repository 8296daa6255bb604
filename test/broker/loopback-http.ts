// Loopback HTTP listeners for the tests of the broker's HTTP client side: each hands its handler
// the request's whole body, counts the TCP connections it accepted (a dial that was refused adds
// none), and is closed by closeListeners, an afterEach hook.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const listeners = new Map<string, Server>();
/** TCP connections each listener accepted, by port. */
export const accepted = new Map<string, number>();

/** A listener on 127.0.0.1 with a port of its own; its URL, at path /mcp. */
export async function listen(handler: Handler): Promise<URL> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = String(address.port);
  server.on('connection', () => accepted.set(port, (accepted.get(port) ?? 0) + 1));
  listeners.set(port, server);
  return new URL(`http://127.0.0.1:${port}/mcp`);
}

/** Closes the listener at `url`'s port, so that nothing listens there any more. */
export async function stopListening(url: URL): Promise<void> {
  const server = listeners.get(url.port);
  listeners.delete(url.port);
  server?.closeAllConnections();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
}

/** Closes every listener a test made. */
export async function closeListeners(): Promise<void> {
  await Promise.all([...listeners.keys()].map((port) => stopListening(new URL(`http://127.0.0.1:${port}/`))));
}
