/**
 * Waits until an mcp-hub at the URL given says it is `ready` (GET /api/health) and its MCP
 * endpoint has registered every tool the hub holds from its connected servers, then exits 0;
 * exits 1 when it says `error`, or when the bound in milliseconds passes first. mcp-hub accepts
 * connections before it has connected its servers, and its endpoint registers a server's tools
 * after the hub has them, so neither a connection nor the state alone means it lists anything yet:
 * its health report is its own word for both. It runs as a
 * process of its own so that it can be started through a session's launch prefix, in the
 * enclosure the hub listens in.
 */
const [url, bound] = process.argv.slice(2);
const deadline = Date.now() + Number(bound);
let pause = 10;

interface Health {
  state?: string;
  servers?: Array<{ status?: string; capabilities?: { tools?: unknown[] } }>;
  mcpEndpoint?: { registeredCapabilities?: { tools?: number } };
}

async function health(): Promise<Health | undefined> {
  try {
    const response = await fetch(url as string, { signal: AbortSignal.timeout(1_000) });
    return response.ok ? ((await response.json()) as Health) : undefined;
  } catch {
    return undefined; // Not listening yet.
  }
}

/** Whether the endpoint offers as many tools as the hub holds from its connected servers. */
function inSync(report: Health): boolean {
  const held = (report.servers ?? []).filter((server) => server.status === 'connected').reduce((sum, server) => sum + (server.capabilities?.tools?.length ?? 0), 0);
  return report.mcpEndpoint?.registeredCapabilities?.tools === held;
}

for (;;) {
  const report = await health();
  const now = report?.state;
  if (now === 'ready' && inSync(report!)) process.exit(0);
  if (now === 'error' || Date.now() + pause > deadline) {
    process.stderr.write(`mcp-hub at ${url} is ${now ?? 'not answering'}\n`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, pause));
  pause = Math.min(pause * 2, 200);
}
