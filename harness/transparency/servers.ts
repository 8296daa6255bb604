import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { waitListening } from '../agent/http-channel.js';
import { spawnGroup } from '../candidates/child.js';
import { freeLoopbackPort } from '../candidates/free-port.js';
import { installedPackageFolder } from '../candidates/brokers/installed.js';
import { packageRoot } from '../paths.js';

/**
 * The official MCP servers the transparency suite drives, pinned as dev dependencies
 * (package.json) and started as the harness starts kit servers: compiled JavaScript run by this
 * Node, in a private folder, with a minimal environment, in a process group of its own that is
 * killed whole when the session ends (harness/candidates/child.ts).
 */
export type OfficialServerId = 'everything' | 'filesystem' | 'memory' | 'sequential-thinking';

/** What a prepared server needs: its arguments and environment, and the paths a session names. */
export interface Prepared {
  args: string[];
  /** The server's own environment: the operator sets exactly this for it. */
  env: Record<string, string>;
  /** The folder the session's paths are under (server-filesystem's root), or the state folder. */
  root: string;
}

export interface OfficialServer {
  id: OfficialServerId;
  /** The npm package, for the report. */
  package: string;
  /** Its compiled entry point. */
  entry: string;
  /**
   * Lays out a fresh state under `state` (removing what a previous session left there), so the
   * direct and the candidate session each start from the same files at the same paths: a path
   * in an answer then needs no normalising.
   */
  prepare(state: string): Promise<Prepared>;
}

/**
 * The server's entry where Node's module resolution finds it from the suite's own folder (a dev
 * dependency: in its checkout's node_modules, hoisted or not); where it would be when it is not
 * installed, which the suite reports as unsupported.
 */
function entryOf(name: string): string {
  const packageName = `@modelcontextprotocol/${name}`;
  const searched = createRequire(import.meta.url).resolve.paths(packageName) ?? [];
  return join(installedPackageFolder(packageName, searched) ?? join(searched[0] ?? 'node_modules', packageName), 'dist', 'index.js');
}

/** The smallest valid PNG (one transparent pixel): server-filesystem's read_media_file answers it as an image. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The files server-filesystem's root holds at the start of each session. */
const SEEDED_FILES: Record<string, string | Buffer> = {
  'notes/alpha.txt': 'alpha\nbeta\ngamma\n',
  'notes/plan.md': '# Plan\n\n- read the notes\n- write a summary\n',
  'data/sample.json': '{"name":"sample","values":[1,2,3]}\n',
  'pixel.png': PIXEL_PNG,
};

async function fresh(state: string): Promise<string> {
  await rm(state, { recursive: true, force: true });
  await mkdir(state, { recursive: true });
  return state;
}

export const OFFICIAL_SERVERS: Record<OfficialServerId, OfficialServer> = {
  everything: {
    id: 'everything',
    package: '@modelcontextprotocol/server-everything',
    entry: entryOf('server-everything'),
    async prepare(state) {
      return { args: [], env: {}, root: await fresh(state) };
    },
  },
  filesystem: {
    id: 'filesystem',
    package: '@modelcontextprotocol/server-filesystem',
    entry: entryOf('server-filesystem'),
    async prepare(state) {
      const root = join(await fresh(state), 'root');
      for (const [path, content] of Object.entries(SEEDED_FILES)) {
        await mkdir(join(root, path, '..'), { recursive: true });
        await writeFile(join(root, path), content);
      }
      return { args: [root], env: {}, root };
    },
  },
  memory: {
    id: 'memory',
    package: '@modelcontextprotocol/server-memory',
    entry: entryOf('server-memory'),
    async prepare(state) {
      const root = await fresh(state);
      return { args: [], env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') }, root };
    },
  },
  'sequential-thinking': {
    id: 'sequential-thinking',
    package: '@modelcontextprotocol/server-sequential-thinking',
    entry: entryOf('server-sequential-thinking'),
    async prepare(state) {
      // Its thought boxes go to stderr only; turned off, they cost nothing.
      return { args: [], env: { DISABLE_THOUGHT_LOGGING: 'true' }, root: await fresh(state) };
    },
  },
};

/** The minimal environment a server is started with directly: its own variables and a PATH. */
export function serverEnv(prepared: Prepared): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...prepared.env };
}

/** The command line of a server over stdio. */
export function stdioCommand(server: OfficialServer, prepared: Prepared): { command: string; args: string[] } {
  return { command: process.execPath, args: [server.entry, ...prepared.args] };
}

/** Forces a port-only listen onto loopback (loopback-only.ts), compiled: every process the harness starts runs compiled JavaScript. */
const loopbackOnly = join(packageRoot, 'dist', 'harness', 'transparency', 'loopback-only.js');

/** The command line of server-everything over Streamable HTTP (SSE answers, the SDK's default), and its URL. */
export async function httpCommand(server: OfficialServer, prepared: Prepared): Promise<{ command: string; args: string[]; env: NodeJS.ProcessEnv; url: string }> {
  const port = await freeLoopbackPort();
  return {
    command: process.execPath,
    args: ['--import', loopbackOnly, server.entry, 'streamableHttp', ...prepared.args],
    env: { ...serverEnv(prepared), PORT: String(port) },
    url: `http://127.0.0.1:${port}/mcp`,
  };
}

/** A server the harness runs over HTTP for a candidate to dial. */
export interface RunningHttpServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * How many ports a server over HTTP is tried on: a free port can be taken by another process
 * between the asking and the server's listen (free-port.ts), and the server then exits at once.
 */
export const PORT_ATTEMPTS = 3;

/** `start` on a fresh port until it starts, up to PORT_ATTEMPTS times; the last failure is thrown. */
export async function onSomeFreePort<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/** Starts server-everything over HTTP in a process group of its own and waits until its port accepts connections. */
export function startHttpServer(server: OfficialServer, prepared: Prepared, workdir: string, timeoutMs: number): Promise<RunningHttpServer> {
  return onSomeFreePort(async () => {
    const { command, args, env, url } = await httpCommand(server, prepared);
    const group = spawnGroup(command, args, { cwd: workdir, env, stderrFile: join(workdir, `${server.id}-http.log`), stdoutToLog: true });
    const stop = () => group.stop(() => group.terminate());
    try {
      await waitListening(url, timeoutMs, group.exited);
    } catch (error) {
      await stop();
      throw error;
    }
    return { url, stop };
  });
}
