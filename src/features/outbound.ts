// The one point where what a server says about its resources, prompts and completions is
// inspected before the agent sees it (descriptors at Load, contents, messages and suggestions in
// answers). Bounds, normalisation and detection are the result path's (src/inspect/); a unified
// outbound stage is meant to replace this function, and nothing else, when it lands.

import type { JsonValue } from '../types.js';
import { inspectValue, type Inspection } from '../inspect/inspect.js';

export function inspectOutbound(value: JsonValue): Inspection {
  return inspectValue(value, ['secret', 'injection']);
}
