import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { isAlive } from '../../harness/observe/processes.js';

const run = promisify(execFile);
const fixture = (name: string) => join(packageRoot, 'test', 'fixtures', 'adapters', name);

/** `gauntlet smoke` on an adapter, with the default step timeout unless told. */
async function smoke(candidate: string, stepTimeoutMs = 10_000): Promise<{ code: number; stdout: string }> {
  try {
    const args = ['smoke', '--candidate', candidate, '--step-timeout', String(stepTimeoutMs)];
    const { stdout } = await run(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), ...args], { cwd: packageRoot });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

const failures = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('FAIL'));

describe('gauntlet smoke', () => {
  it('passes the Python passthrough adapter on every check', async () => {
    const { code, stdout } = await smoke(join(packageRoot, 'adapters', 'python', 'passthrough_adapter.py'));
    expect(failures(stdout)).toEqual([]);
    for (const step of ['handshake and declaration', 'pin', 'start', 'initialize', 'tools/list', 'tools/call', 'stop', 'nothing left running', 'adapter left nothing running', 'adapter exit']) {
      expect(stdout).toMatch(new RegExp(`^ok {4}${step.replace('/', '\\/')}: `, 'm'));
    }
    expect(code).toBe(0);
  });

  it('passes a protocol adapter whose broker serves Streamable HTTP (mcp-proxy on the reserved port)', async () => {
    const { code, stdout } = await smoke(fixture('http-mcp-proxy.py'));
    expect(failures(stdout)).toEqual([]);
    expect(stdout).toMatch(/^ok {4}tools\/call: /m);
    expect(code).toBe(0);
  });

  it('passes the built-in passthrough, a module adapter', async () => {
    const { code, stdout } = await smoke('passthrough');
    expect(failures(stdout)).toEqual([]);
    expect(code).toBe(0);
  });

  it('names a wrong protocol version and exits 2', async () => {
    const { code, stdout } = await smoke(fixture('wrong-version.py'));
    expect(failures(stdout)).toEqual([expect.stringMatching(/^FAIL {2}handshake and declaration: .*speaks gauntlet-candidate\/1, the harness speaks gauntlet-candidate\/2/)]);
    expect(code).toBe(2);
  });

  it('names a start that never answers and exits 2', async () => {
    // A short bound, so the hung start is found quickly.
    const { code, stdout } = await smoke(fixture('start-never-answers.py'), 2_000);
    expect(failures(stdout)).toEqual([expect.stringMatching(/^FAIL {2}start: .*start: no answer within 2000 ms/)]);
    expect(code).toBe(2);
  });

  it('names a process the adapter left running, exits 2, and leaves nothing behind itself', async () => {
    const { code, stdout } = await smoke(fixture('leaves-process.py'));
    expect(failures(stdout)).toEqual([expect.stringMatching(/^FAIL {2}adapter left nothing running: .*still holds pid (\d+) \(sleep 600\)/)]);
    expect(code).toBe(2);
    // Once the adapter has ended its group is killed, the sleep in it too: smoke contains what it finds.
    expect(isAlive(Number(/still holds pid (\d+)/.exec(stdout)![1]))).toBe(false);
  });
});
