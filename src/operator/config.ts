// The operator's configuration: which server to start, how the operator classifies and restricts
// each of its tools, which permissions are granted, what each effect class may do, which agents
// exist, and the limits. It is validated strictly because a setting the broker silently ignored
// would be a protection the operator believes in and does not have.

import { ConfigError } from '../errors.js';
import { Fields } from './fields.js';
import { readJsonFile } from './files.js';
import type { FileGuard } from '../guards/types.js';
import { parsePointer } from '../json/pointer.js';
import { TOKENS_VARIABLE } from '../upstream/tokens.js';
import { member } from '../json/tree.js';
import { nameKey } from '../normal/name.js';
import { parseServerRequests } from './server-requests.js';
import { type JsonObject, type JsonValue, EFFECTS, type Effect, POLICY_ACTIONS, type PolicyAction, type Policy, type Rule, type Selector, CHECK_OPS, type Check, type Contract, type ProcessServerSpec, type ServerSpec, type Limits, type Grant, type Agents, type Config, type NonText, type ResourceAccess } from '../types.js';

export const DEFAULT_DATA_CLASSIFICATION = 'workspace';

export const DEFAULT_LIMITS: Limits = {
  maxPages: 100,
  maxTools: 1000,
  callTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  maxResultChars: 20_000,
  maxDescriptionChars: 1_000,
  maxMessageBytes: 4 * 1024 * 1024,
};

// A cap must leave room for the truncation marker and some text before it.
const MIN_CAP_CHARS = 100;

/** Without a policy, destructive tools still wait for a person: an irreversible call is never free. */
export const DEFAULT_POLICY: Policy = {
  read_only: 'allow',
  local_change: 'allow',
  remote_change: 'allow',
  destructive: 'approve',
};

// setTimeout fires at once for delays above 2^31-1 ms, which would turn a bound into no wait.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const SERVER_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function loadConfig(path: string, guards: readonly FileGuard[]): Config {
  return parseConfig(readJsonFile(path, 'configuration', guards));
}

/** Every server's configuration, in the file's order: one for `server`, one per entry of `servers`. */
export function loadConfigs(path: string, guards: readonly FileGuard[]): Config[] {
  return parseConfigs(readJsonFile(path, 'configuration', guards));
}

/** A configuration naming one `server` and its `rules`. */
export function parseConfig(value: JsonValue): Config {
  const configs = parseConfigs(value);
  if (configs.length !== 1) throw new ConfigError('config names several servers where one is expected');
  return configs[0]!;
}

/**
 * One server and its `rules`, or several `servers`, each entry a server with its own `rules`.
 * Grants, policy, agents, limits and server_requests are the operator's for every server; each server's rules
 * are its own, by its own tool names, so one server's rule never applies to another's tool.
 * Resources and prompts are offered from a configuration of one server only.
 */
export function parseConfigs(value: JsonValue): Config[] {
  const top: Fields = new Fields(value, 'config', ['server', 'rules', 'servers', 'limits', 'grants', 'policy', 'agents', 'server_requests', 'resources', 'prompts', 'non_text']);
  const shared = {
    limits: parseLimits(top.get('limits')),
    grants: parseGrants(top.array('grants') ?? []),
    policy: parsePolicy(top.get('policy')),
    agents: parseAgents(top.entries('agents')),
    serverRequests: parseServerRequests(top.get('server_requests')),
    nonText: parseNonText(top),
  };
  const servers = top.array('servers');
  if (servers === undefined) {
    return [
      {
        server: parseServer(top.get('server')),
        resources: top.get('resources') === undefined ? undefined : parseResources(top.get('resources')),
        prompts: parsePrompts(top.entries('prompts')),
        rules: parseRules(top.required('rules', (f, k) => f.entries(k))),
        ...shared,
      },
    ];
  }
  for (const key of ['server', 'rules']) if (top.get(key) !== undefined) top.fail(key, 'is for one server; with servers, each entry names its own');
  // Which server a resource URI or a prompt name belongs to is not settled for several servers:
  // refused rather than offered from whichever server answers first.
  for (const key of ['resources', 'prompts']) if (top.get(key) !== undefined) top.fail(key, 'is offered from one server only; a configuration naming several servers offers tools alone');
  if (servers.length === 0) top.fail('servers', 'must name at least one server');
  const configs = servers.map((entry, i): Config => {
    if (entry.kind !== 'object') throw new ConfigError(`config.servers[${i}] must be an object`);
    const rules = member(entry, 'rules');
    if (rules?.kind !== 'object') throw new ConfigError(`config.servers[${i}].rules ${rules === undefined ? 'is required' : 'must be an object'}`);
    const server: JsonObject = { kind: 'object', entries: entry.entries.filter(([key]) => key !== 'rules') };
    return { server: parseServer(server, `config.servers[${i}]`), resources: undefined, prompts: undefined, rules: parseRules(rules.entries), ...shared };
  });
  const ids = configs.map((config) => config.server.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  // A server's id is what its tools, manifest and records are known by.
  if (repeated !== undefined) throw new ConfigError(`config.servers: the id ${JSON.stringify(repeated)} names two servers`);
  return configs;
}

/** `non_text`: withheld unless the operator says `pass`; any other value is refused, not guessed at. */
function parseNonText(top: Fields): NonText {
  const given = top.string('non_text');
  if (given === undefined || given === 'withhold' || given === 'pass') return given ?? 'withhold';
  return top.fail('non_text', 'must be "withhold" or "pass"');
}

/**
 * Fields a configuration might carry a credential in, or name a variable holding one (`token_env`):
 * refused, with where tokens do come from. Reading a variable a configuration line names would
 * let that line send any secret of the broker's to the URL it names (CRD-3).
 */
const CREDENTIAL_FIELD = /token|bearer|header|authori[sz]ation|credential|secret|password|api_?key/i;

function parseServer(value: JsonValue | undefined, where = 'config.server'): ServerSpec {
  if (value?.kind === 'object') {
    const named = value.entries.find(([key]) => CREDENTIAL_FIELD.test(key));
    // The file can be written by whoever controls the URL it names (CRD-1); the value is not quoted.
    if (named !== undefined) {
      throw new ConfigError(`${where}.${named[0]} is refused: tokens come only from the broker's environment, ${TOKENS_VARIABLE}`);
    }
  }
  const f: Fields = new Fields(value, where, ['id', 'command', 'args', 'env', 'url', 'prefix', 'source_version']);
  const id = f.required('id', (g, k) => g.string(k));
  if (!SERVER_ID.test(id)) f.fail('id', `must match ${SERVER_ID.source}`);
  const common = { id, prefix: f.string('prefix'), sourceVersion: f.string('source_version') };
  // The prefixed names are checked by the name guards like every other offered name.
  const url = f.string('url');
  if (url === undefined) return { ...common, ...parseCommand(f) };
  for (const key of ['command', 'args', 'env']) {
    if (f.get(key) !== undefined) f.fail(key, 'is for a server the broker starts; this one is reached by url');
  }
  // Whether the URL may be dialled is the address guard's to judge, when the broker connects.
  if (!URL.canParse(url)) f.fail('url', 'must be an absolute URL');
  return { ...common, url: new URL(url) };
}

function parseCommand(f: Fields): Pick<ProcessServerSpec, 'command' | 'args' | 'env'> {
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
    if (text.includes('\0')) throw new ConfigError(`${f.where}: a command, argument or env value contains NUL`);
  }
  return { command, args, env };
}

function parseRules(entries: readonly (readonly [string, JsonValue])[]): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const [tool, value] of entries) {
    const f: Fields = new Fields(value, `config.rules[${JSON.stringify(tool)}]`, [
      'effect',
      'description',
      'allow_hint_mismatch',
      'idempotent',
      'open_world',
      'call_timeout_ms',
      'rename',
      'deny',
      'fixed',
      'permission',
      'data_classification',
      'contract',
      'reads_private',
    ]);
    const effect = f.required('effect', (g, k) => g.string(k));
    if (!isOneOf(EFFECTS, effect)) f.fail('effect', `must be one of ${EFFECTS.join(', ')}`);
    const openWorld = f.boolean('open_world');
    // The two change classes say whether the change reaches beyond the operator's machine:
    // a rule that also said the opposite would show the agent two answers.
    if (openWorld !== undefined && OPEN_WORLD_OF[effect] !== undefined && OPEN_WORLD_OF[effect] !== openWorld) {
      f.fail('open_world', `contradicts effect ${effect}, which is ${OPEN_WORLD_OF[effect] ? 'open-world' : 'not open-world'}`);
    }
    const deny = f.stringArray('deny') ?? [];
    const fixed = f.entries('fixed') ?? [];
    // A name both denied and fixed would leave it unclear whether the call is refused or filled;
    // one fixed twice, which value it is filled with. A parameter is hidden under every spelling
    // of its name (load/hidden.ts), so two spellings of one name are that name twice.
    const denyKeys = deny.map(nameKey);
    const fixedKeys = fixed.map(([name]) => nameKey(name));
    for (const [i, name] of deny.entries()) {
      if (denyKeys.indexOf(denyKeys[i]!) !== i) f.fail('deny', `names ${JSON.stringify(name)} twice, under this spelling or another`);
      if (fixedKeys.includes(denyKeys[i]!)) f.fail('deny', `names ${JSON.stringify(name)}, which fixed also names, under this spelling or another`);
    }
    for (const [i, [name]] of fixed.entries()) {
      if (fixedKeys.indexOf(fixedKeys[i]!) !== i) f.fail('fixed', `names ${JSON.stringify(name)} twice, under this spelling or another`);
    }
    rules.set(tool, {
      effect,
      description: f.string('description'),
      allowHintMismatch: f.boolean('allow_hint_mismatch') ?? false,
      idempotent: f.boolean('idempotent'),
      openWorld,
      callTimeoutMs: f.integer('call_timeout_ms', 1, MAX_TIMEOUT_MS),
      rename: f.string('rename'),
      deny,
      fixed,
      permission: nonEmpty(f, 'permission'),
      dataClassification: nonEmpty(f, 'data_classification') ?? DEFAULT_DATA_CLASSIFICATION,
      readsPrivate: f.boolean('reads_private') ?? false,
      contract: f.get('contract') === undefined ? undefined : parseContract(f.get('contract'), `${f.where}.contract`),
    });
  }
  return rules;
}

/** Whether each effect class is itself open-world (a remote change) or not (a local one); the others leave it to the rule. */
const OPEN_WORLD_OF: Readonly<Partial<Record<Effect, boolean>>> = { local_change: false, remote_change: true };

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
  const f: Fields = new Fields(value, 'config.limits', [
    'max_pages',
    'max_tools',
    'call_timeout_ms',
    'connect_timeout_ms',
    'max_result_chars',
    'max_description_chars',
    'max_message_bytes',
  ]);
  return {
    maxPages: f.integer('max_pages', 1, 10_000) ?? DEFAULT_LIMITS.maxPages,
    maxTools: f.integer('max_tools', 1, 100_000) ?? DEFAULT_LIMITS.maxTools,
    callTimeoutMs: f.integer('call_timeout_ms', 1, MAX_TIMEOUT_MS) ?? DEFAULT_LIMITS.callTimeoutMs,
    connectTimeoutMs: f.integer('connect_timeout_ms', 1, MAX_TIMEOUT_MS) ?? DEFAULT_LIMITS.connectTimeoutMs,
    maxResultChars: f.integer('max_result_chars', MIN_CAP_CHARS, 16 * 1024 * 1024) ?? DEFAULT_LIMITS.maxResultChars,
    maxDescriptionChars: f.integer('max_description_chars', MIN_CAP_CHARS, 16 * 1024 * 1024) ?? DEFAULT_LIMITS.maxDescriptionChars,
    // The JSON reader holds at most 16 MiB, and a bound below 1 KiB would refuse ordinary answers.
    maxMessageBytes: f.integer('max_message_bytes', 1024, 16 * 1024 * 1024) ?? DEFAULT_LIMITS.maxMessageBytes,
  };
}

function parseContract(value: JsonValue | undefined, where: string): Contract {
  const f: Fields = new Fields(value, where, ['readback', 'checks']);
  const readback: Fields = new Fields(f.get('readback'), `${where}.readback`, ['tool', 'arguments']);
  const readbackTool = readback.required('tool', nonEmpty);
  const readbackArguments = (readback.entries('arguments') ?? []).map(([name, selector]) => {
    const parsed = parseSelector(selector, `${where}.readback.arguments[${JSON.stringify(name)}]`);
    // The read-back runs before there is a read-back result to copy from.
    if (parsed.from === 'readback') throw new ConfigError(`${where}.readback.arguments[${JSON.stringify(name)}].from must be arguments or result`);
    return [name, parsed] as const;
  });
  const checks = f.required('checks', (g, k) => g.array(k)).map((check, i) => parseCheck(check, `${where}.checks[${i}]`));
  // A contract that checks nothing would mark every write verified.
  if (checks.length === 0) f.fail('checks', 'must name at least one check');
  return { readbackTool, readbackArguments, checks };
}

function parseCheck(value: JsonValue, where: string): Check {
  const f: Fields = new Fields(value, where, ['left', 'op', 'right']);
  const op = f.required('op', (g, k) => g.string(k));
  if (!isOneOf(CHECK_OPS, op)) f.fail('op', `must be one of ${CHECK_OPS.join(', ')}`);
  const right = f.get('right');
  if (op === 'present' && right !== undefined) f.fail('right', 'must be absent for present');
  if (op !== 'present' && right === undefined) f.fail('right', `is required for ${op}`);
  return {
    left: parseSelector(f.get('left'), `${where}.left`),
    op,
    right: right === undefined ? undefined : parseSelector(right, `${where}.right`),
  };
}

const SELECTOR_SOURCES = ['arguments', 'result', 'readback'] as const;

function parseSelector(value: JsonValue | undefined, where: string): Selector {
  const f: Fields = new Fields(value, where, ['from', 'pointer']);
  const from = f.required('from', (g, k) => g.string(k));
  if (!isOneOf(SELECTOR_SOURCES, from)) f.fail('from', `must be one of ${SELECTOR_SOURCES.join(', ')}`);
  const pointer = f.required('pointer', (g, k) => g.string(k));
  if (parsePointer(pointer) === undefined) f.fail('pointer', 'must be an RFC 6901 JSON Pointer');
  return { from, pointer };
}

function parseGrants(values: readonly JsonValue[]): Grant[] {
  const grants = values.map((value, i): Grant => {
    const f: Fields = new Fields(value, `config.grants[${i}]`, ['id', 'permission', 'expires_at']);
    return {
      id: nonEmpty(f, 'id') ?? `grants[${i}]`,
      permission: f.required('permission', nonEmpty),
      expiresAt: f.required('expires_at', (g, k) => g.instant(k)),
    };
  });
  // A grant's id is what an audit record names it by, so two grants may not share one.
  const ids = grants.map((grant) => grant.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new ConfigError(`config.grants: the id ${JSON.stringify(repeated)} names two grants`);
  return grants;
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

function parseResources(value: JsonValue | undefined): ResourceAccess {
  const f: Fields = new Fields(value, 'config.resources', ['allow']);
  const allow = f.required('allow', (g, k) => g.stringArray(k));
  // A prefix or template that is no absolute URI could never be matched as the operator meant.
  for (const entry of allow) if (!URL.canParse(entry.replaceAll(/\{[^}]*\}/g, 'x'))) f.fail('allow', `names ${JSON.stringify(entry)}, which is not an absolute URI or URI template`);
  return { allow };
}

/** Each allowed prompt is an object with no settings yet: a field there would be one the broker ignores. */
function parsePrompts(entries: readonly (readonly [string, JsonValue])[] | undefined): Set<string> | undefined {
  if (entries === undefined) return undefined;
  for (const [name, value] of entries) new Fields(value, `config.prompts[${JSON.stringify(name)}]`, []);
  return new Set(entries.map(([name]) => name));
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
