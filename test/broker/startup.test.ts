// Connecting to the server and reading its listing (src/load/startup.ts), in this process, as pin
// and serve do it: a started server that fails is named with the end of its stderr, and its
// answers are bounded by the frame guard; a server named by URL is judged by the address guard
// before anything is dialled, reached over HTTP when the guard lets it through, and every address
// a request connects to is judged again as it is dialled (a redirect's target among them).

import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, UpstreamError } from '../../src/errors.js';
import { PRIVATE_ORIGIN_OPT_IN } from '../../src/guards/address.js';
import { ALL_GUARDS, selectGuards } from '../../src/guards/registry.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { startAndList, type Started } from '../../src/load/startup.js';
import { config } from './builders.js';
import { closeListeners, listen } from './loopback-http.js';

const INIT = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'notes', version: '1' } };
const TOOLS = { tools: [{ name: 'search_notes', inputSchema: { type: 'object' } }] };

const opened: Started[] = [];
afterEach(async () => {
  delete process.env[PRIVATE_ORIGIN_OPT_IN];
  await Promise.all(opened.splice(0).map(({ upstream }) => upstream.close()));
  await closeListeners();
});

/** An MCP server over HTTP on loopback, answering initialize and tools/list, or redirecting every request. */
async function mcpOverHttp(redirectTo?: URL): Promise<{ url: URL; requests: () => number }> {
  let requests = 0;
  const url = await listen((request, body, response) => {
    // The broker's GET stream, opened once initialized and at its own pace, is offered none (405)
    // and not counted: only the POSTs are in step with what the test does.
    if (request.method === 'GET' && redirectTo === undefined) return response.writeHead(405).end();
    requests++;
    if (redirectTo !== undefined) return response.writeHead(307, { location: redirectTo.href }).end();
    const message = JSON.parse(body) as { id?: number; method: string };
    if (message.id === undefined) return response.writeHead(202).end();
    const result = message.method === 'initialize' ? INIT : TOOLS;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  return { url, requests: () => requests };
}

const atUrl = (url: URL) => config({}, { server: { id: 'notes', url, prefix: undefined, sourceVersion: undefined } });
const started = (config: Parameters<typeof startAndList>[0], guards = ALL_GUARDS) =>
  startAndList(config, guards).then((done) => {
    opened.push(done);
    return done;
  });
const names = ({ listed }: Started) => listed.map((tool) => tool.name);

describe('a server named by URL', () => {
  it('is refused before anything is dialled when its address is not public, the guard named', async () => {
    const { url, requests } = await mcpOverHttp();
    const refused = started(atUrl(url));
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(new RegExp(`^guard address-guard refused server "notes" at ${url.href.replaceAll('.', '\\.')}: .+`));
    expect(requests()).toBe(0);
  });

  it('is reached over HTTP and listed when the environment opts in to its exact origin', async () => {
    const { url, requests } = await mcpOverHttp();
    process.env[PRIVATE_ORIGIN_OPT_IN] = url.origin;
    expect(names(await started(atUrl(url)))).toEqual(['search_notes']);
    // server/discover (answered with no DiscoverResult: an older server), initialize,
    // notifications/initialized, tools/list (POSTs).
    expect(requests()).toBe(4);
  });

  it('without address-guard, is dialled as named', async () => {
    const { url } = await mcpOverHttp();
    expect(names(await started(atUrl(url), selectGuards(['address-guard'])))).toEqual(['search_notes']);
  });

  it("has every address judged again as it is dialled: a followed redirect's target the opt-in does not cover is never reached", async () => {
    const target = await mcpOverHttp();
    const redirecting = await mcpOverHttp(target.url);
    process.env[PRIVATE_ORIGIN_OPT_IN] = redirecting.url.origin;
    const refused = started(atUrl(redirecting.url), selectGuards(['no-redirects']));
    await expect(refused).rejects.toThrow(/^server "notes" was not dialled at 127\.0\.0\.1: guard address-guard refused it: .+/);
    expect(redirecting.requests()).toBe(1);
    expect(target.requests()).toBe(0);
    // Opted in too, the target is reached through the redirect.
    process.env[PRIVATE_ORIGIN_OPT_IN] = `${redirecting.url.origin} ${target.url.origin}`;
    expect(names(await started(atUrl(redirecting.url), selectGuards(['no-redirects'])))).toEqual(['search_notes']);
  });
});

/** A configuration starting `script` with /bin/sh as the server. */
const shell = (script: string, limits = DEFAULT_LIMITS) =>
  config({}, { server: { id: 'notes', command: '/bin/sh', args: ['-c', script], env: new Map(), prefix: undefined, sourceVersion: undefined }, limits });

describe('a server the broker starts', () => {
  it('that fails is named with the end of what it wrote to stderr, and only then', async () => {
    const failing = started(shell('echo "cannot open the notes database" >&2; exit 1'));
    await expect(failing).rejects.toBeInstanceOf(UpstreamError);
    await expect(failing).rejects.toThrow(/; its stderr ends with: cannot open the notes database\n$/);
    const silent = started(shell('exit 1'));
    await expect(silent).rejects.toThrow(UpstreamError);
    await expect(silent).rejects.not.toThrow(/stderr/);
  });

  it('has its answers bounded by max_message_bytes, and without result-size-bound not at all', async () => {
    // It refuses the server/discover probe as an older server does; its answer to initialize is
    // one line of 4,096 bytes and more; then it lists no tools.
    const script = [
      `read -r _; printf '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}\\n'`,
      `read -r _; printf '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","padding":"'; head -c 4096 /dev/zero | tr '\\0' a; printf '"}}\\n'`,
      `read -r _; read -r _; printf '{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}\\n'; exec sleep 30`,
    ].join('; ');
    const limits = { ...DEFAULT_LIMITS, maxMessageBytes: 1024 };
    await expect(started(shell(script, limits))).rejects.toThrow('server "notes" answered with a message longer than 1024 bytes');
    // Unbounded, the answer is read whole and the listing goes on.
    expect(names(await started(shell(script, limits), selectGuards(['result-size-bound'])))).toEqual([]);
  });
});
