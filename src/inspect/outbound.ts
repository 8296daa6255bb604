// The one way text a server chose on its own (a sampling request's messages, an elicitation's
// message, a log line, a progress message) is inspected before the agent sees it: normalised, and
// refused on a secret or an injection pattern, within inspection's bounds. Kept as one function so
// that a single outbound stage can take its place for every channel.

import { inspectValue, type Inspection } from './inspect.js';
import type { JsonValue } from '../types.js';

export function inspectOutbound(value: JsonValue): Inspection {
  return inspectValue(value, ['secret', 'injection']);
}
