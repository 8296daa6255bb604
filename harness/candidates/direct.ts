import { join } from 'node:path';
import { spawnChannel } from './child.js';
import { ADAPTER_PROTOCOL, type Candidate } from './types.js';

/**
 * No broker at all: the agent talks to the hostile server itself. It declares only listing and
 * calls, so it runs the scenarios that need nothing more, and it is the baseline for benchmarks.
 */
export function directCandidate(): Candidate {
  return {
    info: { name: 'direct', version: '0.1.0', adapterProtocol: ADAPTER_PROTOCOL, features: ['listing', 'calls'] },
    async pin() {
      return { ok: true, detail: 'direct has no broker to pin' };
    },
    async start(spec) {
      // It declares no http-upstreams, so it is only ever given a server to start.
      if (!('command' in spec.upstream)) throw new Error('direct speaks to a server over stdio only');
      return spawnChannel(spec.upstream.command, spec.upstream.args, {
        cwd: spec.workdir,
        env: spec.env,
        stderrFile: join(spec.workdir, 'direct.stderr'),
      });
    },
  };
}
