// The operator's configuration: which server to start, how the operator classifies each of its
// tools, and the limits. It is validated strictly because a setting the broker silently ignored
// would be a protection the operator believes in and does not have.

import { ConfigError } from './errors.js';
import { Fields } from './fields.js';
import { readJsonFile } from './files.js';
import type { JsonValue } from './json/tree.js';

export const EFFECTS = ['read_only', 'local_change', 'remote_change', 'destructive'] as const;
export type Effect = (typeof EFFECTS)[number];

export interface Rule {
  readonly effect: Effect;
  /** Replaces the server's description in what the agent sees. */
  readonly description: string | undefined;
  /** Registers the tool even when the server's hints contradict `effect`. */
  readonly allowHintMismatch: boolean;
  /** Overrides limits.call_timeout_ms for this tool. */
  readonly callTimeoutMs: number | undefined;
}

export interface ServerSpec {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: ReadonlyMap<string, string>;
}

export interface Limits {
  readonly maxPages: number;
  readonly maxTools: number;
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

export interface Config {
  readonly server: ServerSpec;
  readonly rules: ReadonlyMap<string, Rule>;
  readonly limits: Limits;
}

export const DEFAULT_LIMITS: Limits = {
  maxPages: 100,
  maxTools: 1000,
  callTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
};

// setTimeout fires at once for delays above 2^31-1 ms, which would turn a bound into no wait.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const SERVER_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function loadConfig(path: string): Config {
  return parseConfig(readJsonFile(path, 'configuration'));
}

export function parseConfig(value: JsonValue): Config {
  const top: Fields = new Fields(value, 'config', ['server', 'rules', 'limits']);
  return {
    server: parseServer(top.get('server')),
    rules: parseRules(top.required('rules', (f, k) => f.entries(k))),
    limits: parseLimits(top.get('limits')),
  };
}

function parseServer(value: JsonValue | undefined): ServerSpec {
  const f: Fields = new Fields(value, 'config.server', ['id', 'command', 'args', 'env']);
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
  return { id, command, args, env };
}

function parseRules(entries: readonly (readonly [string, JsonValue])[]): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const [tool, value] of entries) {
    const f: Fields = new Fields(value, `config.rules[${JSON.stringify(tool)}]`, [
      'effect',
      'description',
      'allow_hint_mismatch',
      'call_timeout_ms',
    ]);
    const effect = f.required('effect', (g, k) => g.string(k));
    if (!isEffect(effect)) f.fail('effect', `must be one of ${EFFECTS.join(', ')}`);
    rules.set(tool, {
      effect,
      description: f.string('description'),
      allowHintMismatch: f.boolean('allow_hint_mismatch') ?? false,
      callTimeoutMs: f.integer('call_timeout_ms', 1, MAX_TIMEOUT_MS),
    });
  }
  return rules;
}

function isEffect(text: string): text is Effect {
  return (EFFECTS as readonly string[]).includes(text);
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
