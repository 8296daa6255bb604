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
