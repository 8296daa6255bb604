import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentClient } from '../../harness/agent/client.js';
import { AdapterError, loadCandidate } from '../../harness/candidates/registry.js';
import type { Candidate, SessionSpec } from '../../harness/candidates/types.js';
import { packageRoot, passthroughEntry, serverEntry } from '../../harness/paths.js';

const dirs: string[] = [];
const candidates: Candidate[] = [];
afterEach(async () => {
  for (const candidate of candidates.splice(0)) await candidate.dispose?.();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-protocol-'));
  dirs.push(dir);
  return dir;
};

/**
 * A Python adapter that answers hello with `hooks` and `claims` and every other request as
 * `body` says (Python statements, with the request as `r` and `answer(r, result=...)`).
 */
function scripted(body: string, declaration = '"claims": ["listing", "calls"], "hooks": []'): string {
  const file = join(scratch(), 'adapter.py');
  writeFileSync(
    file,
    `import json, sys
HELLO = {"protocol": "gauntlet-candidate/2", "name": "scripted", "version": "1", ${declaration}, "upstreams": ["command"], "config_flaws": False, "unapplied": []}
def answer(r, **fields):
    print(json.dumps({"id": r["id"], **fields}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    if r["method"] == "hello":
        answer(r, result=HELLO)
        continue
${body.replace(/^/gm, '    ')}
`,
  );
  return file;
}

async function load(path: string): Promise<Candidate> {
  const candidate = await loadCandidate(path);
  candidates.push(candidate);
  return candidate;
}

const session = (timeoutMs = 5_000): SessionSpec => {
  const workdir = scratch();
  return {
    workdir,
    upstream: { id: 'notes', command: process.execPath, args: [serverEntry, 'notes', '--ledger', join(workdir, 'ledger.jsonl')] },
    operator: { tools: {} },
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs,
  };
};

describe('a protocol adapter', () => {
  it('is refused with the method and the schema when an answer is invalid', async () => {
    const candidate = await load(scripted('answer(r, result={"ok": True})'));
    const failure = candidate.pin(session());
    await expect(failure).rejects.toThrow(AdapterError);
    await expect(failure).rejects.toThrow(/pin: the answer does not match pin\.answer\.schema\.json: \/result must have required property 'detail'/);
  });

  it('is refused when it answers an id no request had', async () => {
    const candidate = await load(scripted('answer({"id": 99}, result=None)'));
    await expect(candidate.pin(session())).rejects.toThrow(/pin: the adapter answered id 99, which no request had/);
  });

  it('is refused when it exits before answering, and for every request after', async () => {
    const candidate = await load(scripted('sys.exit(3)'));
    await expect(candidate.pin(session())).rejects.toThrow(/pin: the adapter exited \(exit code 3\)/);
    await expect(candidate.start(session())).rejects.toThrow(/start: the adapter exited \(exit code 3\)/);
  });

  it('reports an error answer with its message', async () => {
    const candidate = await load(scripted('answer(r, error={"message": "no broker binary"})'));
    await expect(candidate.pin(session())).rejects.toThrow(/pin: the adapter answered with an error: no broker binary/);
  });

  it('gives up on an answer after the session timeout', async () => {
    const candidate = await load(scripted('pass'));
    await expect(candidate.pin(session(300))).rejects.toThrow(/pin: no answer within 300 ms/);
  });

  it('has exactly the hooks hello declared, and a claim without its hook is refused', async () => {
    const plain = await load(scripted('pass'));
    expect([plain.approve, plain.audit, plain.auditLines, plain.loadReport, plain.startRefusal]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    const hooked = await load(scripted('pass', '"claims": ["listing"], "hooks": ["audit", "start-refusal"]'));
    expect([typeof hooked.audit, typeof hooked.startRefusal, hooked.approve]).toEqual(['function', 'function', undefined]);
    await expect(loadCandidate(scripted('pass', '"claims": ["audit"], "hooks": []'))).rejects.toThrow(/claims audit without the audit hook/);
  });

  it('serves the MCP revisions hello declares, 2025-11-25 alone when it declares none, and refuses one the protocol does not name', async () => {
    expect((await load(scripted('pass'))).info.revisions).toBeUndefined();
    const both = await load(scripted('pass', '"claims": [], "hooks": [], "revisions": ["2025-11-25", "2026-07-28"]'));
    expect(both.info.revisions).toEqual(['2025-11-25', '2026-07-28']);
    await expect(loadCandidate(scripted('pass', '"claims": [], "hooks": [], "revisions": ["2024-11-05"]'))).rejects.toThrow(/hello\.answer\.schema\.json/);
  });

  it("reaches a front door with the credential its start answer provides, which the agent presents and the channel names", async () => {
    // The passthrough's keyed front door: it refuses every request without the key in its header.
    const declaration = '"claims": ["listing", "calls"], "hooks": [], "agent_transports": ["stdio", "http"]';
    const start = (auth: string) =>
      `if r["method"] == "start":
    port = str(r["params"]["port"])
    s = r["params"]["session"]
    answer(r, result={"transport": "http", "url": "http://127.0.0.1:" + port + "/mcp", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(passthroughEntry)}, "--front-door", port, "--", s["upstream"]["command"], *s["upstream"]["args"]], "env": {"GAUNTLET_PROXY_FRONT_DOOR_KEY": "key-5b1e"}${auth}})
else:
    answer(r, result=None)`;
    const keyed = await load(scripted(start(', "front_door_auth": {"header": "X-Front-Door-Key", "value": "key-5b1e"}'), declaration));
    const spec = { ...session(), agentHttp: { headers: { authorization: 'Bearer agent-own' } } };
    const channel = await keyed.start(spec);
    expect(channel.frontDoor).toMatchObject({ credential: { header: 'X-Front-Door-Key', value: 'key-5b1e' }, headers: { authorization: 'Bearer agent-own', 'x-front-door-key': 'key-5b1e' } });
    expect((await new AgentClient(channel, spec.timeoutMs).initialize()).kind).toBe('result');
    await channel.close();
    // The same broker, its key not provided: the agent is refused, so the credential is what served it.
    const unkeyed = await load(scripted(start(''), declaration));
    const refused = await unkeyed.start({ ...session(2_000), agentHttp: { headers: {} } });
    expect(refused.frontDoor?.credential).toBeUndefined();
    expect(await new AgentClient(refused, 2_000).initialize().then((answer) => answer.kind, () => 'failed')).not.toBe('result');
    await refused.close();
    await expect(
      (await load(scripted(start(', "front_door_auth": {"header": "bad header", "value": "k"}'), declaration))).start({ ...session(), agentHttp: { headers: {} } }),
    ).rejects.toThrow(/start\.answer\.schema\.json/);
  }, 30_000);

  it('serves a session end to end through the Python passthrough, every request and answer valid', async () => {
    const candidate = await load(join(packageRoot, 'adapters', 'python', 'passthrough_adapter.py'));
    expect(candidate.info).toMatchObject({ name: 'passthrough-python', claims: ['listing', 'calls'], upstreams: ['command', 'url'], configFlaws: true, revisions: ['2025-11-25', '2026-07-28'] });
    const spec = session();
    expect(await candidate.pin(spec)).toEqual({ ok: true, detail: 'passthrough-python pins nothing' });
    const channel = await candidate.start(spec);
    const agent = new AgentClient(channel, spec.timeoutMs);
    expect((await agent.initialize()).kind).toBe('result');
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(['search_notes', 'read_note', 'write_note']);
    await channel.close();
    expect(await candidate.audit!(spec)).toEqual([]);
    expect(await candidate.auditLines!(spec)).toEqual([]);
    expect(await candidate.loadReport!(spec)).toBeUndefined();
    await candidate.approve!(spec, { requestId: 'r1', decision: 'approve' });
  });
});
