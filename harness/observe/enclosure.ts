import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isIP, isIPv6 } from 'node:net';
import { join } from 'node:path';
import { UnsupportedEnvironment } from '../run/outcome.js';

/** Where util-linux and iproute2 put the tools an enclosure needs, looked up at fixed paths. */
const TOOLS = { unshare: ['/usr/bin/unshare', '/bin/unshare'], nsenter: ['/usr/bin/nsenter', '/bin/nsenter'], ip: ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'] };

/** What a loopback interface carries as soon as it is up. */
const ON_LOOPBACK = ['127.0.0.1', '::1'];

/** What the enclosure's network holds besides loopback. */
export interface EnclosureSpec {
  /** Addresses (IPv4 or IPv6) put on the enclosure's own loopback, so a listener can use them. */
  addresses: string[];
  /** Names the enclosure's /etc/hosts resolves, to addresses among `addresses`. */
  hosts: Record<string, string>;
}

/**
 * A throwaway network namespace, with a mount namespace for its own /etc/hosts, that the harness
 * creates without privileges (`unshare -rnm`). Its only interface is its own loopback, which
 * carries whatever addresses a scenario needs a listener on (169.254.169.254, 10.0.0.5), so
 * nothing sent in it can reach any other machine. The server and the candidate are started in
 * it through `prefix`; it is gone when its holder process is killed.
 */
export class Enclosure {
  private constructor(
    private readonly holder: ChildProcess,
    private readonly exited: Promise<void>,
    /** The command that runs a program inside the enclosure. */
    readonly prefix: readonly string[],
  ) {}

  /** Throws UnsupportedEnvironment when the machine cannot make one. */
  static async create(spec: EnclosureSpec, workdir: string, timeoutMs: number): Promise<Enclosure> {
    const [unshare, nsenter, ip] = (['unshare', 'nsenter', 'ip'] as const).map((tool) => TOOLS[tool].find(exists));
    if (unshare === undefined || nsenter === undefined || ip === undefined) {
      throw new UnsupportedEnvironment('a network enclosure needs unshare, nsenter (util-linux) and ip (iproute2)');
    }
    for (const address of [...spec.addresses, ...Object.values(spec.hosts)]) {
      if (isIP(address) === 0) throw new Error(`an enclosure address must be an IP address: ${address}`);
    }
    // Loopback's own addresses are there already; each other one is a host route of its own.
    const added = [...new Set(spec.addresses)].filter((address) => !ON_LOOPBACK.includes(address)).map((address) => `${address}/${isIPv6(address) ? 128 : 32}`);
    const hostsFile = join(workdir, 'enclosure-hosts');
    const lines = ['127.0.0.1 localhost', ...Object.entries(spec.hosts).map(([name, address]) => `${address} ${name}`)];
    await writeFile(hostsFile, `${lines.join('\n')}\n`);
    // The addresses and the hosts file are passed as arguments, never spliced into the script.
    const script = [
      'set -e',
      'ip=$1; hosts=$2; shift 2',
      '"$ip" link set lo up',
      'for address in "$@"; do "$ip" addr add "$address" dev lo; done',
      'mount --bind "$hosts" /etc/hosts',
      'echo ready',
      'exec sleep 2147483647',
    ].join('\n');
    const holder = spawn(unshare, ['-rnm', '/bin/sh', '-c', script, 'enclosure', ip, hostsFile, ...added], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => holder.once('close', () => resolve()));
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      holder.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      holder.once('error', () => resolve(false));
      holder.once('exit', () => resolve(false));
    });
    if (!ready || holder.pid === undefined) {
      holder.kill('SIGKILL');
      throw new UnsupportedEnvironment('this machine cannot create a network namespace without privileges (unshare -rnm failed)');
    }
    // Without --fork, unshare has exec'd the shell, which exec'd sleep: the holder's pid is in the namespaces.
    return new Enclosure(holder, exited, [nsenter, '-t', String(holder.pid), '-U', '-n', '-m', '--preserve-credentials', '--']);
  }

  async close(): Promise<void> {
    if (this.holder.exitCode === null && this.holder.signalCode === null) this.holder.kill('SIGKILL');
    await this.exited;
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
