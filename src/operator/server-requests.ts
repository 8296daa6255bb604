// What the operator lets a server start on its own towards the agent (docs/reference-broker.md,
// "Requests and notifications from the server"): sampling and elicitation are refused unless
// allowed, the server sees no root unless permitted, and every kind is bounded per session.

import { Fields } from './fields.js';
import type { JsonValue, ServerRequests } from '../types.js';

export const DEFAULT_SERVER_REQUESTS: ServerRequests = {
  sampling: { allow: false, maxRequests: 5, maxTokens: 4096, maxMessageChars: 8000, allowTools: false },
  elicitation: { allow: false, maxRequests: 5, maxMessageChars: 2000 },
  roots: [],
  notifications: { maxLogMessages: 50, maxListChanged: 5 },
};

const MAX_BOUND = 1_000_000_000;

/** `config.server_requests`; every part left out keeps its default. */
export function parseServerRequests(value: JsonValue | undefined): ServerRequests {
  if (value === undefined) return DEFAULT_SERVER_REQUESTS;
  const f: Fields = new Fields(value, 'config.server_requests', ['sampling', 'elicitation', 'roots', 'notifications']);
  const defaults = DEFAULT_SERVER_REQUESTS;
  const sampling = section(f, 'sampling', ['allow', 'max_requests', 'max_tokens', 'max_message_chars', 'allow_tools']);
  const elicitation = section(f, 'elicitation', ['allow', 'max_requests', 'max_message_chars']);
  const notifications = section(f, 'notifications', ['max_log_messages', 'max_list_changed']);
  const roots = f.stringArray('roots') ?? defaults.roots;
  for (const uri of roots) if (!URL.canParse(uri)) f.fail('roots', `names ${JSON.stringify(uri)}, which is not an absolute URI`);
  return {
    sampling: {
      allow: sampling?.boolean('allow') ?? defaults.sampling.allow,
      maxRequests: sampling?.integer('max_requests', 1, MAX_BOUND) ?? defaults.sampling.maxRequests,
      maxTokens: sampling?.integer('max_tokens', 1, MAX_BOUND) ?? defaults.sampling.maxTokens,
      maxMessageChars: sampling?.integer('max_message_chars', 1, MAX_BOUND) ?? defaults.sampling.maxMessageChars,
      allowTools: sampling?.boolean('allow_tools') ?? defaults.sampling.allowTools,
    },
    elicitation: {
      allow: elicitation?.boolean('allow') ?? defaults.elicitation.allow,
      maxRequests: elicitation?.integer('max_requests', 1, MAX_BOUND) ?? defaults.elicitation.maxRequests,
      maxMessageChars: elicitation?.integer('max_message_chars', 1, MAX_BOUND) ?? defaults.elicitation.maxMessageChars,
    },
    roots,
    notifications: {
      maxLogMessages: notifications?.integer('max_log_messages', 0, MAX_BOUND) ?? defaults.notifications.maxLogMessages,
      maxListChanged: notifications?.integer('max_list_changed', 0, MAX_BOUND) ?? defaults.notifications.maxListChanged,
    },
  };
}

function section(f: Fields, key: string, keys: readonly string[]): Fields | undefined {
  const value = f.get(key);
  return value === undefined ? undefined : new Fields(value, `${f.where}.${key}`, keys);
}
