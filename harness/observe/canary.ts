import { createServer, type IncomingMessage, type Server } from 'node:http';

/** One request the canary received: what it asked for, and the headers it carried. */
export interface CanaryRequest {
  method: string;
  /** The request target as sent (path and query). */
  path: string;
  /** Header names lower-cased; a repeated header's values joined with ', '. */
  headers: Record<string, string>;
}

/** Most requests kept in full; past it only `requests` counts. */
export const MAX_RECORDS = 1_000;
/** Longest string kept of a method, path or header value. */
export const MAX_VALUE = 4_096;

const bounded = (text: string): string => (text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text);

function recordOf(request: IncomingMessage): CanaryRequest {
  // Node already bounds a request's head (--max-http-header-size), so the number of headers is
  // bounded before this sees them; each value is bounded here.
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(request.headersDistinct)) {
    if (values !== undefined) headers[name] = bounded(values.join(', '));
  }
  return { method: bounded(request.method ?? ''), path: bounded(request.url ?? ''), headers };
}

/**
 * A listener on 127.0.0.1 that schemas point at. A broker must never fetch what a schema names,
 * so every request it records is evidence of a fetch. It answers 404; it keeps each request's
 * method, path and headers (a credential a broker sent along is harm too), within bounds.
 */
export class Canary {
  /** Every request received, counted past the bound on `records`. */
  requests = 0;
  /** The first requests received, at most MAX_RECORDS, in arrival order. */
  readonly records: CanaryRequest[] = [];
  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly onRecord: ((record: CanaryRequest) => void) | undefined,
  ) {}

  /** `onRecord` is told each request kept, as it is kept (a reproduction folder's canary writes it down). */
  static async start(onRecord?: (record: CanaryRequest) => void): Promise<Canary> {
    let canary: Canary | undefined;
    const server = createServer((request, response) => {
      if (canary) canary.received(request);
      request.resume();
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('the canary has no port');
    canary = new Canary(server, address.port, onRecord);
    return canary;
  }

  private received(request: IncomingMessage): void {
    this.requests++;
    if (this.records.length >= MAX_RECORDS) return;
    const record = recordOf(request);
    this.records.push(record);
    this.onRecord?.(record);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
