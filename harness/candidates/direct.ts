import { join } from 'node:path';
import { spawnChannel } from './child.js';
import { ADAPTER_PROTOCOL, type Candidate } from './types.js';

/**
 * No broker at all: the agent talks to the hostile server itself. It claims only listing and
 * calls and offers no hook, so it runs every scenario over stdio that needs none: what an agent
 * with no broker is exposed to. It is also the baseline for benchmarks.
 */
export function directCandidate(): Candidate {
  return {
    info: { name: 'direct', version: '0.1.0', adapterProtocol: ADAPTER_PROTOCOL, claims: ['listing', 'calls'], upstreams: ['command'] },
    async pin() {
      return { ok: true, detail: 'direct has no broker to pin' };
    },
    async start(spec) {
      // It offers no URL upstream, so it is only ever given a server to start.
      if (!('command' in spec.upstream)) throw new Error('direct speaks to a server over stdio only');
      return spawnChannel(spec.upstream.command, spec.upstream.args, {
        cwd: spec.workdir,
        env: spec.env,
        stderrFile: join(spec.workdir, 'direct.stderr'),
      });
    },
  };
}
