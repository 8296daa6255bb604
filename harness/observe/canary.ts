import { createServer, type Server } from 'node:http';

/**
 * A listener on 127.0.0.1 that schemas point at. A broker must never fetch what a schema names,
 * so every request it records is evidence of a fetch. It answers 404 and keeps nothing else.
 */
export class Canary {
  requests = 0;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Canary> {
    let canary: Canary | undefined;
    const server = createServer((request, response) => {
      if (canary) canary.requests++;
      request.resume();
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('the canary has no port');
    canary = new Canary(server, address.port);
    return canary;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
