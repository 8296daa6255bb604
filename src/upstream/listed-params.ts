// What an HTTP client of a 2026-07-28 server must add to each tools/call: an `Mcp-Param-{Name}`
// header for every argument the tool's input schema annotates with `x-mcp-header`, its value taken
// from the arguments the call's body carries (streamable-http.mdx, "Client Behavior"). The
// annotations are the ones the server itself listed: the connection reads them from each
// tools/list answer it receives, page by page, a later listing of a tool replacing an earlier one.
// The headers come from the body the broker sends, never from anything its agent sent, so a
// header disagreeing with the body cannot be passed on; a tool listed with invalid annotations (or
// never listed) gets none (the param-headers guard refuses such a tool at Load).

import { member, stringValue } from '../json/tree.js';
import { paramAnnotations, paramHeaders, type ParamHeader } from '../schema/param-headers.js';
import type { JsonValue } from '../types.js';

export class ListedParams {
  private readonly byTool = new Map<string, readonly ParamHeader[]>();

  /** Takes note of the annotations of the tools in a tools/list result. */
  learn(result: JsonValue): void {
    const tools = result.kind === 'object' ? member(result, 'tools') : undefined;
    if (tools?.kind !== 'array') return;
    for (const tool of tools.items) {
      const name = tool.kind === 'object' ? stringValue(member(tool, 'name')) : undefined;
      const schema = tool.kind === 'object' ? member(tool, 'inputSchema') : undefined;
      if (name === undefined) continue;
      const annotations = schema?.kind === 'object' ? paramAnnotations(schema) : undefined;
      if (annotations?.ok === true && annotations.headers.length > 0) this.byTool.set(name, annotations.headers);
      else this.byTool.delete(name);
    }
  }

  /** The `Mcp-Param-*` headers of a tools/call's params, as its body's arguments give them. */
  headersFor(params: JsonValue | undefined): Record<string, string> {
    const name = params?.kind === 'object' ? stringValue(member(params, 'name')) : undefined;
    const annotated = name === undefined ? undefined : this.byTool.get(name);
    return annotated === undefined || params?.kind !== 'object' ? {} : paramHeaders(annotated, member(params, 'arguments'));
  }
}
