import { bridgeCandidate } from './bridge.js';
import { installedBroker } from './installed.js';

/**
 * mcp-proxy (punkpeye), installed from npm: a stdio server behind Streamable HTTP at
 * `/mcp` (and SSE at `/sse`), one server process shared by every session. Its only settings that
 * mean something to an operator rule are the two bounds it applies to every request alike, and an
 * API key its front door requires (`--apiKey`, read from MCP_PROXY_API_KEY as yargs maps its
 * options to the environment, and compared in constant time), which the adapter sets when the
 * operator asks for a front-door credential. mcp-proxy hands its own environment to its server,
 * so the server can read that key: the broker's choice, not the adapter's.
 */
export function mcpProxyCandidate() {
  const broker = installedBroker('mcp-proxy', 'mcp-proxy');
  return bridgeCandidate({
    name: 'mcp-proxy',
    version: broker.version,
    unapplied: [
      'tool rules (effect classes, idempotent and open-world hints, renames and prefixes, description overrides, denied and fixed parameters, permissions, data classifications, effect contracts): it has no per-tool configuration',
      'per-tool timeouts: its --requestTimeout bounds every request alike, so it is set to the smallest one given',
      'policy, grants, approvals and agent identities: it has no policy',
      'listing and size limits (pages, tools, result and description lengths): it has none',
      'server URLs, credentials and private-origin opt-ins: it starts its server from a command only',
      'source_version: it keeps no audit',
      'non_text: it forwards images, audio, blobs and embedded resources as the server sent them, and has no setting to withhold them',
    ],
    frontDoorKey: { variable: 'MCP_PROXY_API_KEY', header: 'X-API-Key' },
    adapterProvides: [{ protection: 'FDR-1', how: 'the adapter starts it with --host 127.0.0.1; by itself it listens on every interface (::)' }],
    launch(upstream, port, spec) {
      const { limits, tools } = spec.operator;
      const timeouts = Object.values(tools).flatMap((rule) => (rule.timeout_ms === undefined ? [] : [rule.timeout_ms]));
      return {
        command: process.execPath,
        args: [
          broker.bin,
          '--host', '127.0.0.1',
          '--port', String(port),
          ...(limits?.connect_timeout_ms === undefined ? [] : ['--connectionTimeout', String(limits.connect_timeout_ms)]),
          ...(timeouts.length === 0 ? [] : ['--requestTimeout', String(Math.min(...timeouts))]),
          '--',
          upstream.command,
          ...upstream.args,
        ],
        path: '/mcp',
      };
    },
  });
}
