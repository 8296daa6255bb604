import type { AgentChannel } from './types.js';

type Optional = 'endInput' | 'stderrTail' | 'frontDoor' | 'arriving';

/**
 * The optional members of a channel, each read through to it, for a channel that wraps another
 * (a transcript's tap, a time bound, an adapter's stop): one the wrapper left out would be a hook
 * the harness silently lost.
 */
export function optionalMembers(channel: AgentChannel): Pick<AgentChannel, Optional> {
  return {
    ...(channel.endInput ? { endInput: () => channel.endInput?.() } : {}),
    ...(channel.stderrTail ? { stderrTail: (maxBytes?: number) => channel.stderrTail?.(maxBytes) ?? '' } : {}),
    ...(channel.frontDoor ? { frontDoor: channel.frontDoor } : {}),
    ...(channel.arriving ? { arriving: () => channel.arriving?.() ?? '' } : {}),
  };
}

/**
 * The channel whose close() closes `channel`, then runs `after` (once, however often close() is
 * called): for a wrapper that ends something of its own when the broker is gone.
 */
export function closingAlso(channel: AgentChannel, after: () => Promise<void>): AgentChannel {
  let closing: Promise<void> | undefined;
  return {
    send: (line) => channel.send(line),
    onLine: (handler) => channel.onLine(handler),
    exited: channel.exited,
    pid: channel.pid,
    close: () => (closing ??= channel.close().then(after)),
    ...optionalMembers(channel),
  };
}
