import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { requiredHooks } from '../../harness/expect/plan.js';
import { loadScenarios } from '../../harness/scenario/load.js';

const twoServers = `id: x.two
title: Two servers for the loader tests
requirements: [MSV-2]
level: MUST
kind: control
claims: [multi-server]
description: Two servers behind one candidate, each with its own rules.
servers:
  alpha: { catalogue: notes }
  beta: { catalogue: notes, transport: http }
operator:
  servers:
    alpha: { prefix: alpha, tools: { search_notes: { effect: read_only } } }
    beta: { prefix: beta, tools: { search_notes: { effect: read_only } } }
steps:
  - start: { expect: { outcome: ready } }
  - call: { tool: alpha_search_notes, server_tool: search_notes, arguments: { query: a }, expect: { agent: result, servers_received: { alpha: 1 } } }
`;

const scenarioDir = tempDirs('gauntlet-loader-');
const load = (text: string) => {
  const dir = scenarioDir();
  writeFileSync(join(dir, 'two.yaml'), text);
  return loadScenarios({ dir, requirementIds: new Set(['MSV-2']), serverIds: new Set(['notes']) });
};

describe('a scenario naming several servers', () => {
  it('loads with its first server as the scenario\'s server and an empty shared tools', () => {
    const [scenario] = load(twoServers);
    expect(Object.keys(scenario!.servers!)).toEqual(['alpha', 'beta']);
    expect(scenario!.server).toEqual({ catalogue: 'notes' });
    expect(scenario!.operator.tools).toEqual({});
  });

  it('needs the multi-server hook, and the transport hook of each server', () => {
    expect(requiredHooks(load(twoServers)[0]!).sort()).toEqual(['command-upstream', 'multi-server', 'url-upstream']);
  });

  it('refuses both server and servers, operator blocks for other servers, and shared keys that are each server\'s', () => {
    expect(() => load(twoServers.replace('servers:\n  alpha', 'server: { catalogue: notes }\nservers:\n  alpha'))).toThrow(/exactly one of server and servers/);
    expect(() => load(twoServers.replace('    beta: { prefix: beta,', '    gamma: { prefix: beta,'))).toThrow(/configure exactly the servers named, in their order \(alpha, beta\)/);
    expect(() => load(twoServers.replace('operator:\n', 'operator:\n  prefix: all\n'))).toThrow(/prefix belong in each server's block/);
    expect(() => load(twoServers.replace('beta: { catalogue: notes, transport: http }', 'beta: { catalogue: notes, listen: 10.0.0.5 }'))).toThrow(/does not match the scenario schema/);
    expect(() => load(twoServers.replace('  - start: { expect: { outcome: ready } }', '  - pin: { server: notes }\n  - start: { expect: { outcome: ready } }'))).toThrow(/no pin step names a server/);
  });

  it('refuses a single-server scenario without tools, or with per-server blocks', () => {
    const single = twoServers.replace(/servers:\n  alpha.*\n  beta.*\n/, 'server: { catalogue: notes }\n');
    expect(() => load(single)).toThrow(/operator.servers needs servers/);
    expect(() => load(single.replace(/operator:\n(  .*\n)+steps/, 'operator: {}\nsteps'))).toThrow(/operator.tools is required/);
  });
});
