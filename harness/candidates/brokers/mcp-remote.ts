import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnChannel, throughPrefix } from '../child.js';
import { ADAPTER_PROTOCOL, type Candidate, type SessionSpec } from '../types.js';
import { containedEnv } from './contained-env.js';
import { installedBroker } from './installed.js';

function files(spec: SessionSpec) {
  return {
    stderr: join(spec.workdir, 'mcp-remote.stderr'),
    headers: join(spec.workdir, 'mcp-remote.headers'),
    authDir: join(spec.workdir, 'mcp-auth'),
  };
}

/**
 * mcp-remote's command line for the session's URL, in the operator's terms as far as it has any:
 * - a token mapped to the URL's exact hostname goes in a `--header-file` (its README's way of
 *   keeping a credential out of the process list); mcp-remote sends every header it is given on
 *   every request to that one server;
 * - a token written into the server's entry is the `--header Authorization: Bearer ...` argument
 *   its README shows, and a variable named as the token is written as `${NAME}` there, which
 *   mcp-remote sends as it is written (it expands no placeholder in a header);
 * - an opt-in to a private `http:` origin is `--allow-http`, its only switch about where it may
 *   dial (plain HTTP is otherwise allowed to `localhost` and `127.0.0.1` only).
 */
async function commandLine(spec: SessionSpec, url: string): Promise<string[]> {
  const { credentials, config_token: configToken, config_token_env: configTokenEnv, allow_private_origin: optIn } = spec.operator;
  const args = [url];
  const token = credentials?.[new URL(url).hostname];
  if (token !== undefined) {
    await writeFile(files(spec).headers, `Authorization: Bearer ${token}\n`, { mode: 0o600 });
    args.push('--header-file', files(spec).headers);
  }
  if (configToken !== undefined) args.push('--header', `Authorization: Bearer ${configToken}`);
  if (configTokenEnv !== undefined) args.push('--header', `Authorization: Bearer \${${configTokenEnv}}`);
  if (optIn !== undefined && optIn.startsWith('http:')) args.push('--allow-http');
  return args;
}

/**
 * mcp-remote (npm `mcp-remote`): a stdio server for the agent that dials one remote server by URL
 * (Streamable HTTP, falling back to SSE) and signs in with OAuth when the server asks. It claims
 * no protection of the kind the suite tests: it forwards listings and calls. Its own rules (HTTPS
 * or loopback unless `--allow-http`, `--ignore-tool` patterns) are what it is judged with.
 */
export function mcpRemoteCandidate(): Candidate {
  const broker = installedBroker('mcp-remote', 'mcp-remote');
  return {
    info: {
      name: 'mcp-remote',
      version: broker.version,
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['url'],
      unapplied: [
        'tools: mcp-remote has no allowlist (its --ignore-tool hides names by pattern and cannot say "only these"), and no effect classes, renames, description overrides or parameter rules',
        'prefix, policy, grants, agents and limits: it has nothing of the kind',
        'allow_private_origin: it has no guard on addresses; an opt-in to an http: origin becomes --allow-http, which allows plain HTTP to every host',
        'credentials: it has no token map; a token mapped to the URL\'s exact hostname is sent as a header on every request, over whatever scheme it accepts',
        'non_text: it forwards images, audio, blobs and embedded resources as the server sent them, and has no setting to withhold them',
      ],
    },
    async pin() {
      return { ok: true, detail: 'mcp-remote pins nothing' };
    },
    async startRefusal(spec, exit) {
      // Its one refusal of a URL exits 1 with a line `[pid] Error: ...`; a failed connection
      // logs `Fatal error:` instead, which refused nothing.
      if (exit.code !== 1 || !existsSync(files(spec).stderr)) return undefined;
      const lines = (await readFile(files(spec).stderr, 'utf8')).split('\n');
      return lines.map((line) => /^\[\d+\] Error: (.*)$/.exec(line)?.[1]).find((reason) => reason !== undefined);
    },
    async start(spec) {
      if (!('url' in spec.upstream)) throw new Error('mcp-remote reaches servers by URL only');
      const args = await commandLine(spec, spec.upstream.url);
      await mkdir(files(spec).authDir, { recursive: true });
      const env = {
        ...(await containedEnv(spec.workdir, spec.env)),
        // Where it keeps client registrations, tokens and its lock files.
        MCP_REMOTE_CONFIG_DIR: files(spec).authDir,
        ...(spec.trustedCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: spec.trustedCa }),
      };
      return spawnChannel(...throughPrefix(spec.launchPrefix, process.execPath, [broker.bin, ...args]), {
        cwd: spec.workdir,
        env,
        stderrFile: files(spec).stderr,
      });
    },
  };
}
