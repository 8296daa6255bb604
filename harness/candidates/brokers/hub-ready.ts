/**
 * Waits until an mcp-hub at the URL given says it is `ready` (GET /api/health), then exits 0;
 * exits 1 when it says `error`, or when the bound in milliseconds passes first. mcp-hub accepts
 * connections before it has connected its servers, so accepting a connection does not mean it
 * lists anything yet: its health state is its own word for having finished starting. It runs as a
 * process of its own so that it can be started through a session's launch prefix, in the
 * enclosure the hub listens in.
 */
const [url, bound] = process.argv.slice(2);
const deadline = Date.now() + Number(bound);
let pause = 10;

async function state(): Promise<string | undefined> {
  try {
    const response = await fetch(url as string, { signal: AbortSignal.timeout(1_000) });
    return response.ok ? ((await response.json()) as { state?: string }).state : undefined;
  } catch {
    return undefined; // Not listening yet.
  }
}

for (;;) {
  const now = await state();
  if (now === 'ready') process.exit(0);
  if (now === 'error' || Date.now() + pause > deadline) {
    process.stderr.write(`mcp-hub at ${url} is ${now ?? 'not answering'}\n`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, pause));
  pause = Math.min(pause * 2, 200);
}
