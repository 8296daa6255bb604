// Guards on how the server's messages are framed. A line is read into memory before it can be
// parsed, so the bound on a line is the bound on what one answer can make the broker hold.

import type { FrameGuard, QueueGuard } from './types.js';

export const resultSizeBound: FrameGuard = {
  name: 'result-size-bound',
  lineBound: (limits) => limits.maxMessageBytes,
};

/**
 * What the broker writes to a server waits in memory until the server reads it. A server that
 * stops reading its stdin while the agent goes on calling would have the broker hold every call:
 * past this many unread bytes a call is refused at once instead (a JSON-RPC error).
 */
export const SERVER_QUEUE_BYTES = 4 * 1024 * 1024;

export const serverQueueBound: QueueGuard = {
  name: 'server-queue-bound',
  queuedBytes: () => SERVER_QUEUE_BYTES,
};
