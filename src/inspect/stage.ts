// The outbound stage: every value a server chose passes through here, as one whole message,
// before it reaches the agent, whatever kind of message carries it (inspect/channels.ts). In
// order: bounds over the whole message, the hidden characters and escape sequences stripped from
// every string that may be rewritten, detection on each string's NFKC form (secrets, the planted
// canary, injection patterns, invisible characters where text cannot be rewritten), redaction of the operator's server-environment values, escaping of the
// members read as lines of text, and the channel's cap. A message that exceeds a bound, carries a
// finding, or cannot be inspected at all is withheld whole: nothing uninspected is forwarded.
//
// The guards are its configuration: each names one step and the channels it applies to
// (guards/outbound.ts), so `--disable-guard` removes a step, not a copy of the code.

import { object, plain } from '../json/tree.js';
import { redactor, redactValue, type Redact } from '../result/redact.js';
import type { JsonValue, Limits } from '../types.js';
import { escapeServerText } from './sanitize.js';
import { CHANNEL_PROFILES, CHANNELS, type Channel } from './channels.js';
import { inspectValue } from './inspect.js';

export type { Channel } from './channels.js';

/** What the stage can do to a message, in the order it does it. */
export const STAGE_STEPS = ['inspect', 'redact', 'escape', 'cap'] as const;
export type StageStep = (typeof STAGE_STEPS)[number];

/** One step on some channels: what each outbound guard contributes. */
export interface StageStepConfig {
  readonly step: StageStep;
  readonly channels: readonly Channel[];
}

/** What the stage needs of the session: the operator's values to redact, and the caps. */
export interface StageContext {
  /** The values the operator lent the server, by variable name. */
  readonly serverEnv: ReadonlyMap<string, string>;
  readonly limits: Limits;
}

/** A configured stage: which steps apply to which channel, with what it needs to apply them. */
export interface Stage {
  readonly steps: ReadonlyMap<Channel, ReadonlySet<StageStep>>;
  readonly redact: Redact | undefined;
  readonly limits: Limits;
}

export type Outbound = { readonly ok: true; readonly message: JsonValue } | { readonly ok: false; readonly problem: string };

/** The stage configured by `configs` (the outbound guards kept). */
export function configureStage(configs: readonly StageStepConfig[], context: StageContext): Stage {
  const steps = new Map<Channel, Set<StageStep>>(CHANNELS.map((channel) => [channel, new Set()]));
  for (const { step, channels } of configs) for (const channel of channels) steps.get(channel)?.add(step);
  return { steps, redact: redactor(context.serverEnv), limits: context.limits };
}

/**
 * Passes one message a server chose through the stage, as `channel` (the whole message: a
 * result, an error, a descriptor, a notification's params...). Returns what may reach the agent,
 * or why nothing of it may.
 */
export function inspectOutbound(message: JsonValue, channel: Channel, stage: Stage): Outbound {
  try {
    return throughSteps(message, channel, stage);
  } catch {
    // A message the stage cannot get through (a value too deep for the walk, say) fails closed.
    return { ok: false, problem: 'it could not be inspected' };
  }
}

/**
 * The stage's inspection step alone, on one message of `channel`: bounds over the whole message,
 * normalisation of what may be rewritten, detection. For a guard of its own kind that applies the
 * step where the session has not yet routed that channel through the whole stage (the server's
 * requests and notifications, guards/request-text.ts and guards/notices.ts).
 */
export function inspectMessage(message: JsonValue, channel: Channel): Outbound {
  const inspected = inspectValue(message, ['secret', 'injection', 'hidden'], message, [], CHANNEL_PROFILES[channel].fixed?.(message));
  return inspected.ok ? { ok: true, message: inspected.value } : inspected;
}

function throughSteps(message: JsonValue, channel: Channel, stage: Stage): Outbound {
  const profile = CHANNEL_PROFILES[channel];
  const steps = stage.steps.get(channel) ?? new Set<StageStep>();
  let current = message;
  if (steps.has('inspect')) {
    const inspected = inspectMessage(current, channel);
    if (!inspected.ok) return inspected;
    current = inspected.message;
  }
  // After inspection stripped hidden characters, so a value hidden behind them is found too (and
  // one spelled in compatibility characters, by the redactor's own look at the NFKC form).
  if (steps.has('redact') && stage.redact !== undefined) current = redactValue(current, stage.redact);
  if (steps.has('escape') && current.kind === 'object' && profile.escaped !== undefined) {
    const escaped = new Set(profile.escaped);
    current = object(current.entries.map(([key, value]) => [key, escaped.has(key) && value.kind === 'string' ? plain(escapeServerText(value.value)) : value] as const));
  }
  if (steps.has('cap') && profile.cap !== undefined) current = profile.cap(current, stage.limits);
  return { ok: true, message: current };
}

