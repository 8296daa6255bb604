import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isIP, isIPv6 } from 'node:net';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { throughPrefix } from '../candidates/child.js';
import { dnsResponderEntry } from '../paths.js';
import { hold } from './containment.js';
import { UnsupportedEnvironment } from '../run/outcome.js';

/** Where util-linux and iproute2 put the tools an enclosure needs, looked up at fixed paths. */
const TOOLS = { unshare: ['/usr/bin/unshare', '/bin/unshare'], nsenter: ['/usr/bin/nsenter', '/bin/nsenter'], ip: ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'] };

/** What a loopback interface carries as soon as it is up. */
const ON_LOOPBACK = ['127.0.0.1', '::1'];

/** Where the enclosure's DNS server listens: on loopback already, as all of 127/8 is. */
const RESOLVER = '127.0.0.53';

/** What the enclosure's network holds besides loopback. */
export interface EnclosureSpec {
  /** Addresses (IPv4 or IPv6) put on the enclosure's own loopback, so a listener can use them. */
  addresses: string[];
  /** Names the enclosure's /etc/hosts resolves, to addresses among `addresses`. */
  hosts: Record<string, string>;
  /**
   * Names the enclosure's own DNS server answers, each with IPv4 addresses among `addresses` taken
   * in turn, one per A query (harness/observe/dns.ts); the hosts file must not hold them.
   */
  resolves?: Record<string, string[]>;
}

/**
 * A throwaway network namespace, with a mount namespace for its own /etc/hosts, that the harness
 * creates without privileges (`unshare -rnm`). Its only interface is its own loopback, which
 * carries whatever addresses a scenario needs a listener on (169.254.169.254, 10.0.0.5), so
 * nothing sent in it can reach any other machine. Names resolve by its own hosts file and, when
 * the scenario has names for it, its own DNS server on loopback (named in its own resolv.conf).
 * The server and the candidate are started in it through `prefix`; it is gone when its holder
 * process is killed.
 */
export class Enclosure {
  private constructor(
    private readonly holder: Running,
    /** The command that runs a program inside the enclosure. */
    readonly prefix: readonly string[],
    private readonly resolver: Running | undefined,
    private readonly timeoutMs: number,
  ) {}

  /** Throws UnsupportedEnvironment when the machine cannot make one. */
  static async create(spec: EnclosureSpec, workdir: string, timeoutMs: number): Promise<Enclosure> {
    const [unshare, nsenter, ip] = (['unshare', 'nsenter', 'ip'] as const).map((tool) => TOOLS[tool].find(exists));
    if (unshare === undefined || nsenter === undefined || ip === undefined) {
      throw new UnsupportedEnvironment('a network enclosure needs unshare, nsenter (util-linux) and ip (iproute2)');
    }
    const resolves = Object.entries(spec.resolves ?? {});
    for (const address of [...spec.addresses, ...Object.values(spec.hosts), ...resolves.flatMap(([, addresses]) => addresses)]) {
      if (isIP(address) === 0) throw new Error(`an enclosure address must be an IP address: ${address}`);
    }
    const clash = resolves.find(([name]) => name in spec.hosts);
    // getaddrinfo reads the hosts file first: a name there would never be asked of the DNS server.
    if (clash !== undefined) throw new Error(`${clash[0]} is both in the enclosure's hosts file and served by its DNS`);
    // Loopback's own addresses are there already; each other one is a host route of its own.
    const added = [...new Set(spec.addresses)].filter((address) => !ON_LOOPBACK.includes(address)).map((address) => `${address}/${isIPv6(address) ? 128 : 32}`);
    const hostsFile = join(workdir, 'enclosure-hosts');
    const lines = ['127.0.0.1 localhost', ...Object.entries(spec.hosts).map(([name, address]) => `${address} ${name}`)];
    await writeFile(hostsFile, `${lines.join('\n')}\n`);
    // Only an enclosure with names to serve replaces the machine's resolv.conf, so one that has none
    // does not depend on that file existing; either way no query can leave the loopback.
    const resolvFile = resolves.length === 0 ? '' : join(workdir, 'enclosure-resolv.conf');
    if (resolvFile !== '') await writeFile(resolvFile, `nameserver ${RESOLVER}\n`);
    // The addresses and the files are passed as arguments, never spliced into the script.
    const script = [
      'set -e',
      'ip=$1; hosts=$2; resolv=$3; shift 3',
      '"$ip" link set lo up',
      'for address in "$@"; do "$ip" addr add "$address" dev lo; done',
      'mount --bind "$hosts" /etc/hosts',
      '[ -z "$resolv" ] || mount --bind "$resolv" /etc/resolv.conf',
      'echo ready',
      'exec sleep 2147483647',
    ].join('\n');
    const holder = running(spawn(unshare, ['-rnm', '/bin/sh', '-c', script, 'enclosure', ip, hostsFile, resolvFile, ...added], { stdio: ['ignore', 'pipe', 'pipe'] }));
    if (!(await holder.says('ready', timeoutMs)) || holder.child.pid === undefined) {
      await holder.stop();
      throw new UnsupportedEnvironment('this machine cannot create a network namespace without privileges (unshare -rnm failed)');
    }
    // Without --fork, unshare has exec'd the shell, which exec'd sleep: the holder's pid is in the namespaces.
    const prefix = [nsenter, '-t', String(holder.child.pid), '-U', '-n', '-m', '--preserve-credentials', '--'];
    if (resolves.length === 0) return new Enclosure(holder, prefix, undefined, timeoutMs);
    const assignments = resolves.map(([name, addresses]) => `${name}=${addresses.join(',')}`);
    const resolver = running(spawn(...throughPrefix(prefix, process.execPath, [dnsResponderEntry, RESOLVER, ...assignments]), { stdio: ['pipe', 'pipe', 'ignore'] }));
    if (!(await resolver.says('ready', timeoutMs))) {
      await Promise.all([resolver.stop(), holder.stop()]);
      throw new UnsupportedEnvironment(`the network enclosure's DNS server could not listen on ${RESOLVER} port 53`);
    }
    return new Enclosure(holder, prefix, resolver, timeoutMs);
  }

  /**
   * Starts every name the enclosure's DNS serves from its first address again, and returns once
   * the server has done so: each start of a candidate meets the answers in the same order.
   */
  async restartResolver(): Promise<void> {
    if (this.resolver === undefined) return;
    this.resolver.child.stdin?.write('restart\n');
    if (!(await this.resolver.says('restarted', this.timeoutMs))) throw new Error("the network enclosure's DNS server did not restart its answers");
  }

  async close(): Promise<void> {
    await this.resolver?.stop();
    await this.holder.stop();
  }
}

/** A process the enclosure holds, read line by line from its stdout. */
interface Running {
  child: ChildProcess;
  /** True once the process writes `line`, false if it exits or `timeoutMs` passes first. */
  says(line: string, timeoutMs: number): Promise<boolean>;
  /** Kills it and resolves once it is gone. */
  stop(): Promise<void>;
}

function running(child: ChildProcess): Running {
  // Killing the holder ends the namespaces: held until then, so an interrupted run leaves neither.
  const unhold = hold('process', () => child.kill('SIGKILL'));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve())).then(unhold);
  const lines: Interface | undefined = child.stdout === null ? undefined : createInterface({ input: child.stdout });
  return {
    child,
    says: (expected, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const done = (said: boolean): void => {
          clearTimeout(timer);
          lines?.off('line', onLine);
          child.off('exit', onExit);
          child.off('error', onExit);
          resolve(said);
        };
        const onLine = (line: string): void => {
          if (line === expected) done(true);
        };
        const onExit = (): void => done(false);
        const timer = setTimeout(onExit, timeoutMs);
        lines?.on('line', onLine);
        child.once('exit', onExit);
        child.once('error', onExit);
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
