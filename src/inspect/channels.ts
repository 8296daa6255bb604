// The kinds of message a server's words reach the agent in, and what each needs of the outbound
// stage beyond what every message gets: which strings are only judged (never rewritten), which
// members are read as lines of text and so escaped, and the cap on what is sent. A channel with
// nothing special is one line here; a new kind of message needs no code of its own.

import { member, object, plain, stringValue } from '../json/tree.js';
import { capResult, capText } from '../result/cap.js';
import type { JsonValue, Limits } from '../types.js';
import { collectData, collectSchemaValues } from './schema-text.js';

export const CHANNELS = [
  /** A tool's descriptor as the agent is shown it: name, title, description, input and output
   * schemas, annotations, execution (and a prompt's or resource's entry). */
  'descriptor',
  /** A tools/call result, every member. */
  'result',
  /** A JSON-RPC error the server answered a request with: code, message, data. */
  'error',
  /** A server notification's params. */
  'notification',
  /** A resources/read result's contents. */
  'resource',
  /** A prompts/get result: description and messages. */
  'prompt',
  /** A sampling/createMessage request's params. */
  'sampling',
  /** An elicitation/create request's params: message and requested schema. */
  'elicitation',
  /** A notifications/message (logging) notification's params. */
  'log',
  /** A completion/complete result. */
  'completion',
] as const;

export type Channel = (typeof CHANNELS)[number];

export interface ChannelProfile {
  /** The string nodes of a message that are only judged, never rewritten; keys never are. */
  readonly fixed?: (message: JsonValue) => ReadonlySet<JsonValue>;
  /** Top-level members whose string is read as a line of text (a log, a terminal): escaped. */
  readonly escaped?: readonly string[];
  /** The message cut to what may be sent, once inspected. */
  readonly cap?: (message: JsonValue, limits: Limits) => JsonValue;
}

/** Members that name or address something: rewriting one would name something else. */
const IDENTIFIERS = new Set(['name', 'uri', 'uriTemplate', 'mimeType']);
/** Members holding a JSON Schema, whose strings are fixed but for their prose. */
const SCHEMAS = new Set(['inputSchema', 'outputSchema', 'requestedSchema']);

/** Identifiers and schema values, at any depth. */
function identifiersAndSchemas(message: JsonValue): ReadonlySet<JsonValue> {
  const fixed = new Set<JsonValue>();
  const walk = (value: JsonValue): void => {
    if (value.kind === 'array') value.items.forEach(walk);
    if (value.kind !== 'object') return;
    for (const [key, item] of value.entries) {
      if (SCHEMAS.has(key)) collectSchemaValues(item, fixed);
      else if (IDENTIFIERS.has(key) && item.kind === 'string') collectData(item, fixed);
      else walk(item);
    }
  };
  walk(message);
  return fixed;
}

/** The prose members of a descriptor the model reads (a server's `instructions` too), each cut to the description cap. */
const PROSE = ['title', 'description', 'instructions'];

function capProse(message: JsonValue, limits: Limits): JsonValue {
  if (message.kind !== 'object') return message;
  const capped = (key: string, value: JsonValue): JsonValue => {
    const text = PROSE.includes(key) ? stringValue(value) : undefined;
    return text === undefined ? value : plain(capText(text, limits.maxDescriptionChars));
  };
  return object(message.entries.map(([key, value]) => [key, capped(key, value)] as const));
}

export const CHANNEL_PROFILES: Readonly<Record<Channel, ChannelProfile>> = {
  descriptor: { fixed: identifiersAndSchemas, cap: capProse },
  result: { cap: (message, limits) => capResult(message, limits.maxResultChars) },
  error: { escaped: ['message'] },
  notification: {},
  resource: { fixed: identifiersAndSchemas },
  prompt: { fixed: identifiersAndSchemas },
  sampling: { fixed: identifiersAndSchemas },
  elicitation: { fixed: identifiersAndSchemas },
  log: { escaped: ['logger', 'data'] },
  completion: {},
};
