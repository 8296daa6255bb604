// Guards that decide on registered tools side by side rather than one at a time: the fleet
// guards on every server's tools (fleet.ts), the server-tools guards on one server's (load.ts).
// Each guard in order sees what the one before it left registered; what any refused stays refused.

import type { FleetGuard } from '../guards/types.js';
import type { Refusal, RegisteredTool } from '../types.js';

export function judgeTogether(guards: readonly FleetGuard[], registered: readonly RegisteredTool[], refused: Refusal[]): readonly RegisteredTool[] {
  let left = registered;
  for (const guard of guards) {
    const verdict = guard.judge(left);
    left = verdict.registered;
    refused.push(...verdict.refused);
  }
  return left;
}
