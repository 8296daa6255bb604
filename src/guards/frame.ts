// Guards on how the server's messages are framed. A line is read into memory before it can be
// parsed, so the bound on a line is the bound on what one answer can make the broker hold.

import type { FrameGuard } from './types.js';

export const resultSizeBound: FrameGuard = {
  name: 'result-size-bound',
  lineBound: (limits) => limits.maxMessageBytes,
};
