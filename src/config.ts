// The operator's configuration: which server to start, how the operator classifies and restricts
// each of its tools, which permissions are granted, what each effect class may do, which agents
// exist, and the limits. It is validated strictly because a setting the broker silently ignored
// would be a protection the operator believes in and does not have.

import { ConfigError } from './errors.js';
import { Fields } from './fields.js';
import { readJsonFile } from './files.js';
import type { JsonValue } from './json/tree.js';

export const EFFECTS = ['read_only', 'local_change', 'remote_change', 'destructive'] as const;
export type Effect = (typeof EFFECTS)[number];

export const POLICY_ACTIONS = ['allow', 'deny', 'approve'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];
export type Policy = Readonly<Record<Effect, PolicyAction>>;

export const DEFAULT_DATA_CLASSIFICATION = 'workspace';

export interface Rule {
  readonly effect: Effect;
  /** Replaces the server's description in what the agent sees. */
  readonly description: string | undefined;
  /** Registers the tool even when the server's hints contradict `effect`. */
  readonly allowHintMismatch: boolean;
  /** Overrides limits.call_timeout_ms for this tool. */
  readonly callTimeoutMs: number | undefined;
  /** The name the agent sees instead of the server's (and instead of the prefixed one). */
  readonly rename: string | undefined;
  /** Parameters the agent may not send; hidden from the schema it sees. */
  readonly deny: readonly string[];
  /** Parameters the operator sets, in the file's order, values as parsed (big numbers intact). */
  readonly fixed: readonly (readonly [string, JsonValue])[];
  /** The grant a call needs; undefined when it needs none. */
  readonly permission: string | undefined;
  /** Carried on every receipt for the tool's results. */
  readonly dataClassification: string;
}

export interface ServerSpec {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  /** When set, a tool that is not renamed is offered as `<prefix>_<tool>`. */
  readonly prefix: string | undefined;
}

export interface Limits {
  readonly maxPages: number;
  readonly maxTools: number;
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

export interface Grant {
  readonly permission: string;
  /** Milliseconds since the epoch; the grant is expired at and after this instant. */
  readonly expiresAt: number;
}

/** Each agent id with the server tool names it may see and call. */
export type Agents = ReadonlyMap<string, ReadonlySet<string>>;

export interface Config {
  readonly server: ServerSpec;
  readonly rules: ReadonlyMap<string, Rule>;
  readonly limits: Limits;
  readonly grants: readonly Grant[];
  readonly policy: Policy;
  /** Undefined when the operator names no agents: one anonymous agent may use every tool. */
  readonly agents: Agents | undefined;
}

export const DEFAULT_LIMITS: Limits = {
  maxPages: 100,
  maxTools: 1000,
  callTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
};

export const DEFAULT_POLICY: Policy = {
  read_only: 'allow',
  local_change: 'allow',
  remote_change: 'allow',
  destructive: 'allow',
};

// setTimeout fires at once for delays above 2^31-1 ms, which would turn a bound into no wait.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const SERVER_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function loadConfig(path: string): Config {
  return parseConfig(readJsonFile(path, 'configuration'));
}

export function parseConfig(value: JsonValue): Config {
  const top: Fields = new Fields(value, 'config', ['server', 'rules', 'limits', 'grants', 'policy', 'agents']);
  return {
    server: parseServer(top.get('server')),
    rules: parseRules(top.required('rules', (f, k) => f.entries(k))),
    limits: parseLimits(top.get('limits')),
    grants: (top.array('grants') ?? []).map((grant, i) => parseGrant(grant, `config.grants[${i}]`)),
    policy: parsePolicy(top.get('policy')),
    agents: parseAgents(top.entries('agents')),
  };
}

function parseServer(value: JsonValue | undefined): ServerSpec {
  const f: Fields = new Fields(value, 'config.server', ['id', 'command', 'args', 'env', 'prefix']);
  const id = f.required('id', (g, k) => g.string(k));
  if (!SERVER_ID.test(id)) f.fail('id', `must match ${SERVER_ID.source}`);
  const command = f.required('command', (g, k) => g.string(k));
  if (command === '') f.fail('command', 'must not be empty');
  const args = f.stringArray('args') ?? [];
  const env = new Map<string, string>();
  for (const [name, v] of f.entries('env') ?? []) {
    if (!ENV_NAME.test(name)) f.fail('env', `names an invalid variable ${JSON.stringify(name)}`);
    if (v.kind !== 'string') f.fail(`env.${name}`, 'must be a string');
    env.set(name, v.value);
  }
  // A NUL cannot be passed to exec; refusing it here gives a clear message instead of a spawn error.
  for (const text of [command, ...args, ...env.values()]) {
    if (text.includes('\0')) throw new ConfigError('config.server: a command, argument or env value contains NUL');
  }
  // The prefixed names are checked by the name guards like every other offered name.
  return { id, command, args, env, prefix: f.string('prefix') };
}

function parseRules(entries: readonly (readonly [string, JsonValue])[]): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const [tool, value] of entries) {
    const f: Fields = new Fields(value, `config.rules[${JSON.stringify(tool)}]`, [
      'effect',
      'description',
      'allow_hint_mismatch',
      'call_timeout_ms',
      'rename',
      'deny',
      'fixed',
      'permission',
      'data_classification',
    ]);
    const effect = f.required('effect', (g, k) => g.string(k));
    if (!isOneOf(EFFECTS, effect)) f.fail('effect', `must be one of ${EFFECTS.join(', ')}`);
    const deny = f.stringArray('deny') ?? [];
    const fixed = f.entries('fixed') ?? [];
    // A name both denied and fixed would leave it unclear whether the call is refused or filled.
    for (const [i, name] of deny.entries()) {
      if (deny.indexOf(name) !== i) f.fail('deny', `names ${JSON.stringify(name)} twice`);
      if (fixed.some(([k]) => k === name)) f.fail('deny', `names ${JSON.stringify(name)}, which fixed also names`);
    }
    rules.set(tool, {
      effect,
      description: f.string('description'),
      allowHintMismatch: f.boolean('allow_hint_mismatch') ?? false,
      callTimeoutMs: f.integer('call_timeout_ms', 1, MAX_TIMEOUT_MS),
      rename: f.string('rename'),
      deny,
      fixed,
      permission: nonEmpty(f, 'permission'),
      dataClassification: nonEmpty(f, 'data_classification') ?? DEFAULT_DATA_CLASSIFICATION,
    });
  }
  return rules;
}

function nonEmpty(f: Fields, key: string): string | undefined {
  const text = f.string(key);
  if (text === '') f.fail(key, 'must not be empty');
  return text;
}

function isOneOf<T extends string>(list: readonly T[], text: string): text is T {
  return (list as readonly string[]).includes(text);
}

function parseLimits(value: JsonValue | undefined): Limits {
  if (value === undefined) return DEFAULT_LIMITS;
  const f: Fields = new Fields(value, 'config.limits', ['max_pages', 'max_tools', 'call_timeout_ms', 'connect_timeout_ms']);
  return {
    maxPages: f.integer('max_pages', 1, 10_000) ?? DEFAULT_LIMITS.maxPages,
    maxTools: f.integer('max_tools', 1, 100_000) ?? DEFAULT_LIMITS.maxTools,
    callTimeoutMs: f.integer('call_timeout_ms', 1, MAX_TIMEOUT_MS) ?? DEFAULT_LIMITS.callTimeoutMs,
    connectTimeoutMs: f.integer('connect_timeout_ms', 1, MAX_TIMEOUT_MS) ?? DEFAULT_LIMITS.connectTimeoutMs,
  };
}

function parseGrant(value: JsonValue, where: string): Grant {
  const f: Fields = new Fields(value, where, ['permission', 'expires_at']);
  return {
    permission: f.required('permission', nonEmpty),
    expiresAt: f.required('expires_at', (g, k) => g.instant(k)),
  };
}

function parsePolicy(value: JsonValue | undefined): Policy {
  if (value === undefined) return DEFAULT_POLICY;
  const f: Fields = new Fields(value, 'config.policy', EFFECTS);
  const action = (effect: Effect): PolicyAction => {
    const text = f.string(effect);
    if (text === undefined) return DEFAULT_POLICY[effect];
    return isOneOf(POLICY_ACTIONS, text) ? text : f.fail(effect, `must be one of ${POLICY_ACTIONS.join(', ')}`);
  };
  return {
    read_only: action('read_only'),
    local_change: action('local_change'),
    remote_change: action('remote_change'),
    destructive: action('destructive'),
  };
}

function parseAgents(entries: readonly (readonly [string, JsonValue])[] | undefined): Agents | undefined {
  if (entries === undefined) return undefined;
  const agents = new Map<string, ReadonlySet<string>>();
  for (const [id, value] of entries) {
    const f: Fields = new Fields(value, `config.agents[${JSON.stringify(id)}]`, ['tools']);
    if (id === '') throw new ConfigError('config.agents names an agent with an empty id');
    agents.set(id, new Set(f.required('tools', (g, k) => g.stringArray(k))));
  }
  return agents;
}
