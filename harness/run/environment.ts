// What the harness takes out of its own environment before it starts anything, so that no process
// it starts (candidate, adapter, kit server, relay) inherits it from the machine.
//
// NODE_EXTRA_CA_CERTS names a file of certificates that every Node.js process reads and parses as
// it starts, whether it ever opens a TLS connection or not. A machine that sets it to the system
// bundle (Debian's: 144 certificates, 215 KB) makes each Node start cost about 50 ms more (33 ms
// to 83 ms for `node -e 0` on the 2-core machine of reports/bench.md), and a scenario starts four
// Node processes. Nothing the harness starts needs it: all its traffic stays on loopback or in its
// own enclosures, and a scenario served over HTTPS names the authority that issued its certificate
// itself (SessionSpec.trustedCa, passed as NODE_EXTRA_CA_CERTS by each adapter). Left in place it
// also skews the benchmarks: the reference broker starts its server with a minimal environment,
// without the variable, while `direct` starts the same server with it, so the baseline pays a cost
// the broker's server does not.

/** Variables of the machine the harness drops from the environment of everything it starts. */
export const DROPPED_VARIABLES = ['NODE_EXTRA_CA_CERTS'] as const;

/** Deletes the dropped variables from `env` (the harness's own environment, by default). */
export function dropMachineVariables(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of DROPPED_VARIABLES) delete env[name];
}
