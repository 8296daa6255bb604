// The environment a server is started with. The server is third-party code, so it does not
// inherit the broker's environment: a token meant for one program must not reach another. It
// gets only what it needs to run (PATH, HOME, TMPDIR when the broker has them) and what the
// operator names for it, and the operator's values win.

import type { ProcessServerSpec } from '../types.js';

const INHERITED = ['PATH', 'HOME', 'TMPDIR'] as const;

export function childEnv(spec: ProcessServerSpec, parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of spec.env) env[name] = value;
  return env;
}
