import type { Answer } from '../agent/client.js';
import type { ClientSide, Effect, OperatorConfig, ToolRule } from '../scenario/types.js';
import { isObject, payloadOf } from './normalise.js';
import type { Observed } from './observe.js';

/** Bounds set far past anything these sessions produce, so no default cap decides what passes. */
const GENEROUS_LIMITS = { max_result_chars: 1_000_000, max_description_chars: 100_000, max_tools: 1_000, max_pages: 100 } as const;

/** Each effect class allowed: the operator permits every tool it classified. */
const ALLOW_ALL = { read_only: 'allow', local_change: 'allow', remote_change: 'allow', destructive: 'allow' } as const;

/**
 * A tool's rule taken from its own annotations, read with MCP's defaults for absent hints (a tool
 * that says nothing is destructive and open-world), so no honest broker's hint check refuses it
 * and the agent is shown what the server said, as an operator copying what it has vetted would
 * state it: read-only, destructive, open-world (remote) or else a local change, with the server's
 * idempotent and open-world hints stated where it gave them (CLS-3: shown from the rule alone).
 */
function ruleOf(tool: Record<string, unknown>): ToolRule {
  const hints = isObject(tool.annotations) ? tool.annotations : {};
  const effect: Effect =
    hints.readOnlyHint === true ? 'read_only' : hints.destructiveHint !== false ? 'destructive' : hints.openWorldHint !== false ? 'remote_change' : 'local_change';
  return {
    effect,
    ...(typeof hints.idempotentHint === 'boolean' ? { idempotent: hints.idempotentHint } : {}),
    ...(typeof hints.openWorldHint === 'boolean' ? { open_world: hints.openWorldHint } : {}),
  };
}

function listed(observed: readonly Observed[], id: string, member: string): Array<Record<string, unknown>> {
  const answer: Answer | undefined = observed.find((entry) => entry.id === id)?.answer;
  if (answer === undefined || answer.kind !== 'result') return [];
  const payload = payloadOf(answer);
  const items = isObject(payload) ? payload[member] : undefined;
  return Array.isArray(items) ? items.filter(isObject) : [];
}

/** The scheme of a URI or template with its `//` (`demo://`, `memory://`): the prefix that admits all of a server's resources of that scheme. */
function schemeOf(uri: string): string {
  const match = /^([a-z][a-z0-9+.-]*:(?:\/\/)?)/i.exec(uri);
  return match ? match[1]! : uri;
}

/**
 * A permitting operator configuration generated from what the server offered direct: every tool
 * allowed and classified, every resource and template and prompt allowed, every server request
 * the agent answers permitted (roots: the agent's own), non-text content passed, bounds generous.
 */
export function permittingConfig(direct: readonly Observed[], side: ClientSide, env: Record<string, string>): OperatorConfig {
  const tools = Object.fromEntries(listed(direct, 'tools/list', 'tools').flatMap((tool) => (typeof tool.name === 'string' ? [[tool.name, ruleOf(tool)]] : [])));
  const uris = [
    ...listed(direct, 'resources/list', 'resources').map((resource) => resource.uri),
    ...listed(direct, 'resources/templates/list', 'resourceTemplates').map((template) => template.uriTemplate),
  ].filter((uri): uri is string => typeof uri === 'string');
  const prompts = listed(direct, 'prompts/list', 'prompts').flatMap((prompt) => (typeof prompt.name === 'string' ? [prompt.name] : []));
  return {
    tools,
    policy: { ...ALLOW_ALL },
    limits: { ...GENEROUS_LIMITS },
    ...(Object.keys(env).length > 0 ? { env: { ...env } } : {}),
    ...(uris.length > 0 ? { resources: { allow: [...new Set(uris.map(schemeOf))] } } : {}),
    ...(prompts.length > 0 ? { prompts: Object.fromEntries(prompts.map((name) => [name, {}])) } : {}),
    ...(side.sampling === undefined ? {} : { sampling: { allow: true, max_requests: 100, allow_tools: side.sampling.tools === true } }),
    ...(side.elicitation === undefined ? {} : { elicitation: { allow: true, max_requests: 100 } }),
    ...(side.roots === undefined ? {} : { roots: side.roots.map((root) => root.uri) }),
    notifications: { max_log_messages: 10_000, max_list_changed: 1_000 },
    non_text: 'pass',
  };
}
