import { bridgeCandidate } from './bridge.js';
import { installedBroker } from './installed.js';
import { shellWord } from './shell-word.js';
import { REVISIONS } from '../../agent/revisions.js';

/**
 * supergateway, installed from npm, from stdio to Streamable HTTP with `--stateful`, its option
 * for a stateful server ("Whether the server is stateful"): one server for each session, kept for
 * the session's life. Every server the suite runs is stateful (the kit's counts and drift, the
 * official servers' sessions), and in its default stateless mode supergateway starts a fresh
 * server for every POST, so a server's answer would forget the call before it: an operator who
 * put a stateful server behind it would set the option. It takes the server as one shell command
 * line, and has no setting an operator rule maps to.
 *
 * It serves both MCP revisions: it relays each JSON-RPC message between its front door and the
 * server's stdio without reading it, so a 2026-07-28 agent's stateless requests reach a server
 * that speaks 2026-07-28 as they were sent. Measured on 4.0.0 (2026-12-06) by running the
 * 2026-07-28 cases with this declaration: 102 of 102 controls passed, as on 2025-11-25. (The other
 * four npm brokers, so run, never answered the agent's server/discover: see installed.ts.)
 */
export function supergatewayCandidate() {
  const broker = installedBroker('supergateway', 'supergateway');
  return bridgeCandidate({
    name: 'supergateway',
    version: broker.version,
    revisions: REVISIONS,
    unapplied: [
      'tool rules (effect classes, idempotent and open-world hints, renames and prefixes, description overrides, denied and fixed parameters, permissions, timeouts, data classifications, effect contracts): it has no per-tool configuration',
      'policy, grants, approvals and agent identities: it has no policy',
      'limits (pages, tools, result and description lengths, connect timeout): it has none',
      'server URLs, credentials and private-origin opt-ins: this mode starts its server from a command only',
      'source_version: it keeps no audit',
      'front_door_credential: it has no credential of its own to require: its front door serves any client that can reach its port',
      'non_text: it forwards images, audio, blobs and embedded resources as the server sent them, and has no setting to withhold them',
    ],
    launch(upstream, port) {
      return {
        command: process.execPath,
        args: [
          broker.bin,
          '--stdio', [upstream.command, ...upstream.args].map(shellWord).join(' '),
          '--outputTransport', 'streamableHttp',
          '--stateful',
          '--port', String(port),
        ],
        path: '/mcp',
      };
    },
  });
}
