// The environment a server is started with (src/upstream/env.ts), on its own: of the broker's
// environment only PATH, HOME and TMPDIR, and only those it has; the operator's variables for
// the server; the operator's value where both name one.

import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/upstream/env.js';
import type { ProcessServerSpec } from '../../src/types.js';

const spec = (env: Record<string, string> = {}): ProcessServerSpec => ({
  id: 'notes',
  command: 'node',
  args: [],
  env: new Map(Object.entries(env)),
  prefix: undefined,
  sourceVersion: undefined,
});
const BROKER = { PATH: '/usr/bin', HOME: '/home/op', TMPDIR: '/tmp/op', NOTES_API_TOKEN: 'secret', AWS_SECRET_ACCESS_KEY: 'x', NODE_OPTIONS: '--require evil.js' };

describe('childEnv', () => {
  it('passes PATH, HOME and TMPDIR of the broker, and nothing else of it', () => {
    expect(childEnv(spec(), BROKER)).toEqual({ PATH: '/usr/bin', HOME: '/home/op', TMPDIR: '/tmp/op' });
  });

  it('leaves out what the broker does not have', () => {
    expect(childEnv(spec(), { HOME: '/home/op' })).toEqual({ HOME: '/home/op' });
    expect(childEnv(spec(), {})).toEqual({});
  });

  it("adds the operator's variables for the server, and the operator's value wins", () => {
    expect(childEnv(spec({ NOTES_API_TOKEN: 'for-notes', PATH: '/opt/notes/bin' }), BROKER)).toEqual({
      PATH: '/opt/notes/bin',
      HOME: '/home/op',
      TMPDIR: '/tmp/op',
      NOTES_API_TOKEN: 'for-notes',
    });
  });
});
