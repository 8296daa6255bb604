// A tool whose `x-mcp-header` annotations break MCP 2026-07-28's constraints is refused
// (src/schema/param-headers.ts says which). The spec has an HTTP client "exclude the invalid tool
// from the result of tools/list"; the broker decides its tools once, at Load, for agents of either
// revision and servers of any transport, so it refuses the tool whatever the server's transport:
// an agent reaching the broker over HTTP is such a client, and a tool offered to one agent and
// not another would be two catalogues. What the header would carry cannot be told from the body
// for an annotation off the `properties` chain, and one that is no token cannot be sent at all:
// whoever routes on the header and whoever executes the body would act on different values.

import { paramAnnotations } from '../schema/param-headers.js';
import type { ToolGuard } from './types.js';

export const paramHeadersValid: ToolGuard = {
  name: 'param-headers',
  check: ({ inputSchema }) => {
    const annotations = paramAnnotations(inputSchema);
    return annotations.ok ? { kind: 'pass' } : { kind: 'refuse', reason: `its input schema's x-mcp-header annotations are invalid: ${annotations.reason}` };
  },
};
