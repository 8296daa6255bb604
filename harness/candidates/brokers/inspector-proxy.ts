import { dirname, join, resolve } from 'node:path';
import { spawnHttpChannel } from '../../agent/http-channel.js';
import { freeLoopbackPort } from '../free-port.js';
import { ADAPTER_PROTOCOL, type Candidate, type FrontDoorCredential, type UpstreamCommand } from '../types.js';
import { containedEnv } from './contained-env.js';
import { installedBroker, SDK_REVISIONS } from './installed.js';
import { shellWord } from './shell-word.js';

/** The first version whose proxy requires a session token and checks Origin (CVE-2025-49596's fix). */
const FIRST_GUARDED = [0, 14, 1];

/** Whether `version` (major.minor.patch) is at least `floor`. */
function atLeast(version: string, floor: readonly number[]): boolean {
  const parts = version.split(/[.-]/).map(Number);
  for (const [index, least] of floor.entries()) {
    const part = parts[index] ?? 0;
    if (part !== least) return part > least;
  }
  return true;
}

/** The line the guarded proxy prints its session token on, for its user to copy. */
function sessionToken(line: string): FrontDoorCredential | undefined {
  const token = /Session token: ([0-9a-f]+)/.exec(line)?.[1];
  return token === undefined ? undefined : { header: 'Authorization', value: `Bearer ${token}` };
}

/**
 * The query string naming the server, as the Inspector's web client sends it: the proxy starts
 * `command` (found on PATH as spawn-rx finds it) with `args` split by shell-quote.
 */
function serverQuery(upstream: UpstreamCommand): string {
  return new URLSearchParams({ transportType: 'stdio', command: upstream.command, args: upstream.args.map(shellWord).join(' ') }).toString();
}

/**
 * The MCP Inspector's proxy (npm `@modelcontextprotocol/inspector`, `server/build/index.js`, which
 * its `mcp-inspector` CLI starts on port 6277 beside its web client): for each client that opens a
 * session at `/mcp` it starts the stdio command the client names in the URL's query string and
 * relays the session to it. It is reached at that URL with the scenario's server named in it, as
 * its web client reaches it. From 0.14.1 it draws a session token at start, prints it and requires
 * it as `Authorization: Bearer`, refuses an Origin it does not allow, and binds 127.0.0.1; before,
 * it did none of these (CVE-2025-49596, test/advisories/inspector.test.ts). It has no other
 * protection, and the adapter adds none: it has no built-in candidate, since the suite pins no
 * vulnerable version among its own dependencies.
 */
export function inspectorProxyCandidate(options: { installedFrom: string }): Candidate {
  const inspector = installedBroker('@modelcontextprotocol/inspector', 'mcp-inspector', options.installedFrom);
  // Where its CLI finds it: two folders up from cli/build/cli.js.
  const proxy = resolve(dirname(inspector.bin), '..', '..', 'server', 'build', 'index.js');
  const guarded = atLeast(inspector.version, FIRST_GUARDED);
  return {
    info: {
      name: 'inspector-proxy',
      version: inspector.version,
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command'],
      agentTransports: ['http'],
      revisions: SDK_REVISIONS,
      unapplied: [
        'tool rules, prefix, policy, grants, agents and limits: the proxy has no configuration of the kind',
        guarded
          ? 'front_door_credential: the proxy always requires the session token it draws and prints at start (the adapter reads it from its output and provides it); it cannot be told not to short of DANGEROUSLY_OMIT_AUTH, which the adapter never sets'
          : 'front_door_credential: this version has no credential of its own',
        guarded
          ? "allowed_origins: given as ALLOWED_ORIGINS; without them the proxy allows its web client's origins (http://localhost:6274 and http://127.0.0.1:6274), not its own"
          : 'allowed_origins: this version has no Origin check',
        'server URLs, credentials and private-origin opt-ins: the adapter names a command server only',
        'source_version: it keeps no audit',
        'non_text: it forwards images, audio, blobs and embedded resources as the server sent them',
      ],
    },
    async pin() {
      return { ok: true, detail: 'the Inspector proxy pins nothing' };
    },
    async start(spec) {
      if (!('command' in spec.upstream)) throw new Error('the Inspector proxy adapter names a command server only');
      const port = await freeLoopbackPort();
      const { allowed_origins: allowedOrigins, env: serverEnv } = spec.operator;
      const env = {
        ...(await containedEnv(spec.workdir, spec.env)),
        PORT: String(port),
        // Its CLI's way to give the server variables (`mcp-inspector -e KEY=VALUE`).
        ...(serverEnv === undefined ? {} : { MCP_ENV_VARS: JSON.stringify(serverEnv) }),
        ...(allowedOrigins === undefined ? {} : { ALLOWED_ORIGINS: allowedOrigins.join(',') }),
      };
      const channel = spawnHttpChannel(process.execPath, [proxy], {
        url: `http://127.0.0.1:${port}/mcp?${serverQuery(spec.upstream)}`,
        cwd: spec.workdir,
        env,
        stderrFile: join(spec.workdir, 'inspector-proxy.stderr'),
        readyTimeoutMs: spec.timeoutMs,
        headers: spec.agentHttp?.headers ?? {},
        ...(guarded ? { printedCredential: sessionToken } : {}),
        ...(spec.launchPrefix === undefined ? {} : { launchPrefix: spec.launchPrefix }),
      });
      await channel.ready;
      return channel;
    },
  };
}
