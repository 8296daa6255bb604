import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnChannel, throughPrefix } from '../child.js';
import { ADAPTER_PROTOCOL, type AgentChannel, type Candidate, type SessionSpec } from '../types.js';
import { BRIDGE_PROVIDES, startBridge, withBridge, type BridgedServer } from './bridged.js';
import { containedEnv } from './contained-env.js';
import { installedBroker, type InstalledBroker, SDK_REVISIONS } from './installed.js';
import { HIDE_EVERY_TOOL, ignorePatterns, listedToolNames, loadLearned, saveLearned } from './tool-filter.js';

function files(spec: SessionSpec) {
  return {
    stderr: join(spec.workdir, 'mcp-remote.stderr'),
    headers: join(spec.workdir, 'mcp-remote.headers'),
    authDir: join(spec.workdir, 'mcp-auth'),
    learned: join(spec.workdir, 'mcp-remote.tools.json'),
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
async function commandLine(spec: SessionSpec, url: string, ignored: readonly string[]): Promise<string[]> {
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
  for (const pattern of ignored) args.push('--ignore-tool', pattern);
  return args;
}

/**
 * The `--ignore-tool` patterns for a start: every tool the server listed at review time that the
 * operator did not allow (tool-filter.ts). A start with nothing learned (no pin, or a pin that
 * listed nothing) hides every tool: the operator has not seen the names to allow.
 */
async function toolFilter(spec: SessionSpec): Promise<string[]> {
  const learned = await loadLearned(files(spec).learned);
  if (learned === undefined) return [HIDE_EVERY_TOOL];
  return ignorePatterns(learned, Object.keys(spec.operator.tools)).patterns;
}

/** mcp-remote for the session, dialling the server's URL, or the adapter's bridge in front of its command. */
async function launch(broker: InstalledBroker, spec: SessionSpec, ignored: readonly string[], stderr = files(spec).stderr): Promise<AgentChannel> {
  let bridge: BridgedServer | undefined;
  const url = 'url' in spec.upstream ? spec.upstream.url : (bridge = await startBridge(spec.upstream, spec)).url;
  try {
    const args = await commandLine(spec, url, ignored);
    await mkdir(files(spec).authDir, { recursive: true });
    const env = {
      ...(await containedEnv(spec.workdir, spec.env)),
      // Where it keeps client registrations, tokens and its lock files.
      MCP_REMOTE_CONFIG_DIR: files(spec).authDir,
      ...(spec.trustedCa === undefined ? {} : { NODE_EXTRA_CA_CERTS: spec.trustedCa }),
    };
    const channel = spawnChannel(...throughPrefix(spec.launchPrefix, process.execPath, [broker.bin, ...args]), { cwd: spec.workdir, env, stderrFile: stderr });
    return bridge === undefined ? channel : withBridge(channel, bridge);
  } catch (error) {
    await bridge?.close();
    throw error;
  }
}

/**
 * mcp-remote (npm `mcp-remote`): a stdio server for the agent that dials one remote server by URL
 * (Streamable HTTP, falling back to SSE) and signs in with OAuth when the server asks. It claims
 * no protection of the kind the suite tests: it forwards listings and calls. Its own rules (HTTPS
 * or loopback unless `--allow-http`, `--ignore-tool` patterns mapped from the operator's
 * allowlist) are what it is judged with; a command server is reached through the adapter's bridge.
 */
export function mcpRemoteCandidate(options: { installedFrom?: string } = {}): Candidate {
  // `installedFrom`: the folder whose node_modules holds the version to run, for a test that runs
  // several versions side by side (test/advisories/); the suite's own pin by default.
  const broker = installedBroker('mcp-remote', 'mcp-remote', options.installedFrom);
  return {
    info: {
      name: 'mcp-remote',
      version: broker.version,
      adapterProtocol: ADAPTER_PROTOCOL,
      claims: ['listing', 'calls'],
      upstreams: ['command', 'url'],
      revisions: SDK_REVISIONS,
      // It signs in with OAuth when a server asks, opening the authorization URL with the `open` package.
      oauthClient: true,
      unapplied: [
        'tools: mcp-remote has no allowlist; its --ignore-tool patterns (whole name, any case, * for any run) only hide, so the adapter lists the server through mcp-remote at pin and hides each listed tool not allowed: a tool the server adds after the pin is not hidden, a * in a name or a name differing only in case also hides the allowed tool it matches, and a start with no pin hides every tool',
        'tools: no effect classes, idempotent or open-world hints, renames, description overrides or parameter rules',
        'prefix, policy, grants, agents and limits: it has nothing of the kind',
        'allow_private_origin: it has no guard on addresses; an opt-in to an http: origin becomes --allow-http, which allows plain HTTP to every host',
        'credentials: it has no token map; a token mapped to the URL\'s exact hostname is sent as a header on every request, over whatever scheme it accepts',
        'a command server: mcp-remote dials URLs only, so the adapter\'s bridge serves it over Streamable HTTP on 127.0.0.1 (declared in adapter_provides)',
        'non_text: it forwards images, audio, blobs and embedded resources as the server sent them, and has no setting to withhold them',
      ],
      adapterProvides: [
        { protection: 'CRD-2', how: "the adapter writes the operator's token into mcp-remote's header file only when the URL's hostname is exactly the token's host; mcp-remote then sends it on every request to that URL" },
        ...BRIDGE_PROVIDES,
      ],
    },
    /**
     * mcp-remote pins nothing. The adapter's own review step, as an operator configuring its
     * tool filter would take it: run mcp-remote once with no filter, list the server's tools
     * through it, and keep their names for the starts' --ignore-tool patterns.
     */
    async pin(spec) {
      const listed = await listedToolNames(await launch(broker, spec, [], join(spec.workdir, 'mcp-remote.pin.stderr')), spec.timeoutMs);
      if ('failure' in listed) return { ok: false, detail: `mcp-remote pins nothing; listing the server through it for its tool filter failed (${listed.failure}), so a start hides every tool` };
      await saveLearned(files(spec).learned, listed.names);
      const { patterns, alsoHidden } = ignorePatterns(listed.names, Object.keys(spec.operator.tools));
      const also = alsoHidden.length === 0 ? '' : `; the patterns also hide the allowed ${alsoHidden.join(', ')} (mcp-remote matches without case, * is a wildcard)`;
      return { ok: true, detail: `mcp-remote pins nothing; the adapter listed ${listed.names.length} tool(s) through it and hides ${patterns.length} the operator did not allow with --ignore-tool${also}` };
    },
    async startRefusal(spec, exit) {
      // Its one refusal of a URL exits 1 with a line `[pid] Error: ...`; a failed connection
      // logs `Fatal error:` instead, which refused nothing.
      if (exit.code !== 1 || !existsSync(files(spec).stderr)) return undefined;
      const lines = (await readFile(files(spec).stderr, 'utf8')).split('\n');
      return lines.map((line) => /^\[\d+\] Error: (.*)$/.exec(line)?.[1]).find((reason) => reason !== undefined);
    },
    async start(spec) {
      return launch(broker, spec, await toolFilter(spec));
    },
  };
}
