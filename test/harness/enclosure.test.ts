// The network enclosure: its loopback carries the scenario's addresses, its hosts file the
// scenario's names, and nothing of it outlives close(). Skipped where the machine cannot make one.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Enclosure } from '../../harness/observe/enclosure.js';
import { UnsupportedEnvironment } from '../../harness/run/outcome.js';

const dirs: string[] = [];

/** The processes whose command line names `name`: a DNS server started for it. */
function serving(name: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${name}=`);
    } catch {
      return false;
    }
  });
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Enclosure', () => {
  it('holds its addresses and names on its own loopback, and is gone after close', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'enclosure-'));
    dirs.push(dir);
    let enclosure: Enclosure;
    try {
      enclosure = await Enclosure.create({ addresses: ['10.0.0.5', 'fd00::5', '127.0.0.1'], hosts: { 'mcp.example.com': '10.0.0.5' } }, dir, 5000);
    } catch (error) {
      if (error instanceof UnsupportedEnvironment) return context.skip();
      throw error;
    }
    const [command, ...prefix] = enclosure.prefix;
    const inside = (args: string[]) => execFileSync(command!, [...prefix, ...args], { encoding: 'utf8' });
    const addresses = inside(['ip', 'addr', 'show', 'dev', 'lo']);
    expect(addresses).toContain('10.0.0.5/32');
    expect(addresses).toContain('fd00::5/128');
    expect(inside(['getent', 'hosts', 'mcp.example.com'])).toMatch(/^10\.0\.0\.5\s+mcp\.example\.com/);
    // Only loopback: there is no route to anywhere else.
    expect(inside(['ip', '-o', 'link']).trim().split('\n')).toHaveLength(1);
    await enclosure.close();
    expect(() => inside(['true'])).toThrow();
  });

  it('answers the names its DNS serves in turn, from the first again after a restart, and stops its server on close', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'enclosure-'));
    dirs.push(dir);
    // Its own name, so that the DNS server found serving it is this test's.
    const name = `notes-${process.pid}.rebind-gauntlet.net`;
    let enclosure: Enclosure;
    try {
      enclosure = await Enclosure.create({ addresses: ['93.184.215.14', '10.0.0.5'], hosts: {}, resolves: { [name]: ['93.184.215.14', '10.0.0.5'] } }, dir, 5000);
    } catch (error) {
      if (error instanceof UnsupportedEnvironment) return context.skip();
      throw error;
    }
    const [command, ...prefix] = enclosure.prefix;
    // ahostsv4 is getaddrinfo for IPv4 alone: one A query per lookup, as the zone counts them.
    const lookup = () => execFileSync(command!, [...prefix, 'getent', 'ahostsv4', name], { encoding: 'utf8' }).split(/\s/)[0];
    expect([lookup(), lookup(), lookup()]).toEqual(['93.184.215.14', '10.0.0.5', '10.0.0.5']);
    await enclosure.restartResolver();
    expect(lookup()).toBe('93.184.215.14');
    expect(serving(name)).toHaveLength(1);
    await enclosure.close();
    expect(serving(name)).toEqual([]);
    expect(() => lookup()).toThrow();
  });
});
