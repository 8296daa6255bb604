// The outbound guards: each is one step of the outbound stage (inspect/stage.ts) on the channels
// it protects, so removing a guard removes that step and nothing else. The stage runs every kept
// step on every message a server chose, as one whole message.

import { CHANNELS, type Channel } from '../inspect/channels.js';
import type { OutboundGuard } from './types.js';

/** Everything a server says at run time: every channel but the descriptors decided at Load. */
const RUN_TIME: readonly Channel[] = CHANNELS.filter((channel) => channel !== 'descriptor');

export const inspectDescriptorsStep: OutboundGuard = { name: 'inspect-descriptors', step: 'inspect', channels: ['descriptor'] };

/** Named for the channel it began with; it inspects every message a server sends at run time. */
export const inspectResults: OutboundGuard = { name: 'inspect-results', step: 'inspect', channels: RUN_TIME };

/**
 * The values of the server's environment (for a server reached by URL, its token) are lent to the
 * server alone. Descriptors are decided at Load, before the session has them, and were shown to
 * the operator whole when they were pinned.
 */
export const redactServerEnv: OutboundGuard = { name: 'redact-server-env', step: 'redact', channels: RUN_TIME };

/**
 * A server's error message is the server's text: escaped as in the load report, it cannot forge
 * a line, move the terminal's cursor or hide characters from whoever reads it.
 */
export const serverErrorEscaped: OutboundGuard = { name: 'server-error-escaped', step: 'escape', channels: ['error'] };

/** A description's length is the server's choice, and every character of it is model input. */
export const descriptionCap: OutboundGuard = { name: 'description-cap', step: 'cap', channels: ['descriptor'] };

export const resultCap: OutboundGuard = { name: 'result-cap', step: 'cap', channels: ['result'] };
