// Small constructors for the broker's unit tests: tools as a server lists them, pins as a
// manifest records them, operator rules, and what a guard on a server's own request is told.

import { DEFAULT_LIMITS, DEFAULT_POLICY } from '../../src/operator/config.js';
import { descriptionHash, schemaFingerprint } from '../../src/load/fingerprint.js';
import { DEFAULT_SERVER_REQUESTS } from '../../src/operator/server-requests.js';
import { JsonReadError, readJson, type ReadLimits } from '../../src/json/reader.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import type { CallContext, ClientFacts, InitiatedContext } from '../../src/guards/types.js';
import { decideTools } from '../../src/load/load.js';
import { Quarantine } from '../../src/load/quarantine.js';
import { PrivateReads } from '../../src/session/private-reads.js';
import type { AuditEntry } from '../../src/session/audit.js';
import type { Config, Effect, Rule, ServerRequests, JsonObject, JsonValue, ListedTool, RegisteredTool, Manifest, PinnedTool } from '../../src/types.js';

export function json(text: string): JsonObject {
  const value = readJson(text);
  if (value.kind !== 'object') throw new Error(`not an object: ${text}`);
  return value;
}

/** Reads `text`; a refusal must be a JsonReadError, anything else thrown is a crash. */
export function attemptRead(text: string, limits?: ReadLimits): JsonValue | JsonReadError {
  try {
    return readJson(text, limits);
  } catch (error) {
    if (error instanceof JsonReadError) return error;
    throw error;
  }
}

export function tool(name: string, overrides: { description?: string; schema?: string; annotations?: string } = {}): ListedTool {
  return {
    name,
    description: 'description' in overrides ? overrides.description : `${name} does things`,
    inputSchema: json(overrides.schema ?? '{"type":"object"}'),
    annotations: overrides.annotations === undefined ? undefined : json(overrides.annotations),
    outputSchema: undefined,
  };
}

export function pinOf(listed: ListedTool): PinnedTool {
  return {
    descriptionHash: descriptionHash(listed.description),
    titleHash: listed.title === undefined ? undefined : descriptionHash(listed.title),
    execution: listed.execution,
    schemaHash: schemaFingerprint(listed.inputSchema).hash,
    inputSchema: listed.inputSchema,
    annotations: listed.annotations,
    outputSchema: listed.outputSchema,
  };
}

export function rule(effect: Effect, overrides: Partial<Rule> = {}): Rule {
  return {
    effect,
    description: undefined,
    allowHintMismatch: false,
    idempotent: undefined,
    openWorld: undefined,
    callTimeoutMs: undefined,
    rename: undefined,
    deny: [],
    fixed: [],
    permission: undefined,
    dataClassification: 'workspace',
    contract: undefined,
    readsPrivate: false,
    ...overrides,
  };
}

export function config(rules: Record<string, Rule>, overrides: Partial<Config> & { prefix?: string } = {}): Config {
  const { prefix, ...rest } = overrides;
  return {
    server: { id: 'notes', command: 'node', args: [], env: new Map(), prefix, sourceVersion: undefined },
    rules: new Map(Object.entries(rules)),
    limits: DEFAULT_LIMITS,
    grants: [],
    policy: DEFAULT_POLICY,
    serverRequests: DEFAULT_SERVER_REQUESTS,
    agents: undefined,
    resources: undefined,
    prompts: undefined,
    nonText: 'withhold',
    ...rest,
  };
}

export const manifestOf = (tools: readonly ListedTool[]): Manifest => ({
  server: 'notes',
  tools: new Map(tools.map((t) => [t.name, pinOf(t)])),
});

/** Load with every guard, each tool pinned as listed. */
export function registeredTools(tools: readonly ListedTool[], rules: Record<string, Rule>, overrides: Parameters<typeof config>[1] = {}): RegisteredTool[] {
  return [...decideTools(tools, manifestOf(tools), config(rules, overrides), ALL_GUARDS).registered];
}

export function registeredTool(name: string, r: Rule = rule('read_only'), schema?: string): RegisteredTool {
  const [registered] = registeredTools([tool(name, schema === undefined ? {} : { schema })], { [name]: r });
  if (registered === undefined) throw new Error(`${name} did not register`);
  return registered;
}

/** The instant unit tests call now: 2030-01-01T00:00:00Z. */
export const NOW = Date.UTC(2030, 0, 1);

/** A refused call's audit record, as the session would hand it to the trail. */
export const auditEntry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  decision: 'call_refused',
  tool: 'write_note',
  name: 'save_note',
  agent: 'writer',
  code: 'policy_denied',
  toolExists: true,
  call: null,
  contract: null,
  detail: null,
  ...overrides,
});

export function context(overrides: Partial<CallContext> = {}): CallContext {
  return { agent: undefined, agents: undefined, grants: [], policy: DEFAULT_POLICY, approvals: undefined, clock: () => NOW, quarantine: new Quarantine(), privateReads: new PrivateReads(), ...overrides };
}

export const CONTEXT = context();

/**
 * The agent's handshake, which the MCP lifecycle puts before any other request; its answer is
 * taken off `sent`, so a test sees only what its own requests got.
 */
export function initialized<S extends { handleLine(line: string): void }>(s: S, sent: string[]): S {
  s.handleLine('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}');
  sent.pop();
  return s;
}

/** The agent's capabilities as its initialize declared them: none, but those a test names. */
export const clientFacts = (declared: Partial<ClientFacts> = {}): ClientFacts => ({
  sampling: false,
  samplingTools: false,
  elicitationForm: false,
  elicitationUrl: false,
  roots: false,
  ...declared,
});

/**
 * What a guard on a server's request or notification is told: the operator's server-request
 * policy (the defaults, but the sections a test replaces), the agent's capabilities, the
 * server's environment, and how many such messages the server has sent, this one included.
 */
export function initiatedContext(over: { policy?: Partial<ServerRequests>; client?: Partial<ClientFacts>; serverEnv?: InitiatedContext['serverEnv']; count?: number } = {}): InitiatedContext {
  return {
    policy: { ...DEFAULT_SERVER_REQUESTS, ...over.policy },
    client: clientFacts(over.client),
    serverEnv: over.serverEnv ?? new Map(),
    count: over.count ?? 1,
  };
}
