// The canary keeps what each request carried, not just that it came, within its bounds.

import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Canary, MAX_RECORDS, MAX_VALUE } from '../../harness/observe/canary.js';

const canaries: Canary[] = [];
afterEach(async () => {
  for (const canary of canaries.splice(0)) await canary.stop();
});

async function started(): Promise<Canary> {
  const canary = await Canary.start();
  canaries.push(canary);
  return canary;
}

/** One request to the canary, settled once its 404 has been read. */
function get(port: number, path: string, headers: Record<string, string | string[]> = {}, agent?: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method: 'GET', headers, ...(agent ? { agent } : {}) }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

describe('Canary', () => {
  it('records the method, path and headers of a request, a credential included', async () => {
    const canary = await started();
    const status = await get(canary.port, '/schema.json?draft=7', {
      Authorization: 'Bearer canary-secret',
      'X-Repeated': ['first', 'second'],
      'X-Long': 'y'.repeat(MAX_VALUE + 1_000),
    });
    expect(status).toBe(404);
    expect(canary.requests).toBe(1);
    expect(canary.records).toHaveLength(1);
    const [record] = canary.records;
    expect(record?.method).toBe('GET');
    expect(record?.path).toBe('/schema.json?draft=7');
    expect(record?.headers.authorization).toBe('Bearer canary-secret');
    expect(record?.headers['x-repeated']).toBe('first, second');
    expect(record?.headers['x-long']).toBe('y'.repeat(MAX_VALUE));
    expect(record?.headers.host).toBe(`127.0.0.1:${canary.port}`);
  });

  it('keeps at most MAX_RECORDS records and goes on counting past them', async () => {
    const canary = await started();
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const total = MAX_RECORDS + 5;
      for (let sent = 0; sent < total; sent += 5) {
        await Promise.all(Array.from({ length: 5 }, (_, i) => get(canary.port, `/r${sent + i}`, {}, agent)));
      }
      expect(canary.requests).toBe(total);
      expect(canary.records).toHaveLength(MAX_RECORDS);
      expect(new Set(canary.records.map((record) => record.path)).size).toBe(MAX_RECORDS);
    } finally {
      agent.destroy();
    }
  });
});
