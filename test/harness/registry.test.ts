import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdapterTimeout } from '../../harness/candidates/bounded.js';
import { AdapterError, loadCandidate } from '../../harness/candidates/registry.js';
import { ADAPTER_PROTOCOL } from '../../harness/candidates/types.js';
import { packageRoot } from '../../harness/paths.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** An adapter module on disk whose factory returns `body`, an object literal in JavaScript. */
function adapter(body: string): string {
  dir = mkdtempSync(join(tmpdir(), 'gauntlet-adapter-'));
  const file = join(dir, 'adapter.mjs');
  writeFileSync(file, `export default () => (${body});\n`);
  return file;
}

const info = (claims: string) => `{ name: 'x', version: '1', adapterProtocol: '${ADAPTER_PROTOCOL}', claims: ${claims} }`;

describe('loading an adapter', () => {
  it('refuses a claim whose hook is missing, so its checks can never be skipped', async () => {
    const file = adapter(`{ info: ${info("['listing', 'calls', 'audit']")}, pin: async () => ({ ok: true, detail: '' }), start: async () => { throw new Error('unused'); } }`);
    await expect(loadCandidate(file)).rejects.toThrow(AdapterError);
    await expect(loadCandidate(file)).rejects.toThrow(/claims audit without the audit hook/);
  });

  it('refuses an adapter that declares no claims', async () => {
    const file = adapter(`{ info: { name: 'x', version: '1', adapterProtocol: '${ADAPTER_PROTOCOL}', features: ['listing'] }, pin: async () => ({}), start: async () => ({}) }`);
    await expect(loadCandidate(file)).rejects.toThrow(/does not declare its claims/);
  });

  it('bounds every call into the adapter in time', async () => {
    const file = adapter(`{ info: ${info("['listing']")}, pin: () => new Promise(() => {}), start: async () => { throw new Error('unused'); } }`);
    const candidate = await loadCandidate(file);
    const spec = { workdir: dir!, timeoutMs: 50, env: {}, operator: { tools: {} }, upstream: { id: 'x', command: 'true', args: [] } };
    await expect(candidate.pin(spec)).rejects.toThrow(AdapterTimeout);
  }, 15_000);

  it('runs any other path as a protocol adapter, executed directly', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gauntlet-adapter-'));
    const file = join(dir, 'adapter');
    writeFileSync(file, `#!/bin/sh\nexec python3 ${join(packageRoot, 'adapters', 'python', 'passthrough_adapter.py')}\n`);
    chmodSync(file, 0o755);
    const candidate = await loadCandidate(file);
    try {
      expect(candidate.info).toMatchObject({ name: 'passthrough-python', adapterProtocol: 'gauntlet-candidate/2' });
    } finally {
      await candidate.dispose?.();
    }
  });

  it('says so when a name is neither a built-in nor a file', async () => {
    await expect(loadCandidate('passthru')).rejects.toThrow(/passthru: not a built-in candidate \(reference, .*\) and no adapter file of that name/);
  });
});
