// @ts-check
// A gauntlet adapter for a plain stdio proxy, written outside the suite: it imports only the
// public module `mcp-gauntlet/adapter`. Run it with `npx gauntlet run --candidate ./adapter.js`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADAPTER_PROTOCOL, spawnChannel, throughPrefix } from 'mcp-gauntlet/adapter';

const proxy = fileURLToPath(new URL('./proxy.js', import.meta.url));

/** @type {import('mcp-gauntlet/adapter').CandidateFactory} */
export default function externalProxy() {
  return {
    info: {
      name: 'external-proxy',
      version: '0.1.0',
      adapterProtocol: ADAPTER_PROTOCOL,
      // Claim only what the broker enforces: a proxy lists and forwards, nothing more.
      claims: ['listing', 'calls'],
      // It starts its server from a command line; a scenario whose server it must dial by URL is
      // `unsupported`, not an error.
      upstreams: ['command'],
      unapplied: ['every operator rule: the proxy has no configuration of its own'],
    },
    async pin() {
      return { ok: true, detail: 'the proxy pins nothing' };
    },
    async start(spec) {
      if (!('command' in spec.upstream)) throw new Error('the proxy reaches servers only by command');
      const { command, args } = spec.upstream;
      // Through the launch prefix, so the broker runs in the scenario's network enclosure.
      return spawnChannel(...throughPrefix(spec.launchPrefix, process.execPath, [proxy, '--', command, ...args]), {
        cwd: spec.workdir,
        // The broker's own environment, and the variables the operator set for the server.
        env: { ...spec.env, ...spec.operator.env },
        stderrFile: join(spec.workdir, 'proxy.stderr'),
      });
    },
  };
}
