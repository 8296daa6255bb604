// The server as a process (src/upstream/process.ts), run from source in this process against
// small shell servers: how its end is reported, the last 4 KiB of stderr kept and no more, what
// it has left unread counted (the lines held for a turn's one write among it), a server that
// cannot start refused, the environment it gets, a group asked to end by SIGTERM first, stopped
// by it, and one that ignores it killed by SIGKILL; closed with every other server the broker
// tracks; its group watched only as the guards plan it, the watcher gone with the group; and
// settlesWithin's bounds.

import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { ServerProcess, settlesWithin } from '../../src/upstream/process.js';
import { reaper } from '../../src/upstream/reaper.js';
import type { ProcessServerSpec } from '../../src/types.js';
import { waitDead } from './e2e-helpers.js';
import { liveMembers, watchersOf } from './process-groups.js';

const started: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

const spec = (script: string, env: Record<string, string> = {}): ProcessServerSpec => ({
  id: 'notes',
  command: '/bin/sh',
  args: ['-c', script],
  env: new Map(Object.entries(env)),
  prefix: undefined,
  sourceVersion: undefined,
});
async function start(script: string, env?: Record<string, string>, guards = ALL_GUARDS.process): Promise<ServerProcess> {
  const server = await ServerProcess.start(spec(script, env), guards);
  started.push(server);
  return server;
}
/** What the server has written to stdout so far, as it arrives. */
function stdoutSoFar(server: ServerProcess): () => string {
  let text = '';
  server.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}
/** Everything the server writes to stdout until it ends. */
async function stdoutOf(server: ServerProcess): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of server.stdout) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('ServerProcess', () => {
  it('reports how the server ended: its exit code, or the signal that killed it', async () => {
    expect(await (await start('exit 3')).exited).toBe('exited with code 3');
    expect(await (await start('kill -s KILL $$')).exited).toBe('was killed by SIGKILL');
  });

  it('keeps the last 4,096 bytes of stderr, across chunks, and nothing before them', async () => {
    const server = await start(`head -c 10000 /dev/zero | tr '\\0' a >&2; printf 'bcd' >&2; head -c 5000 /dev/zero | tr '\\0' e >&2; printf END >&2`);
    await expect.poll(() => server.stderrTail().endsWith('END')).toBe(true);
    const tail = server.stderrTail();
    expect(tail).toHaveLength(4096);
    expect(tail).toBe(`${'e'.repeat(4093)}END`);
    const short = await start(`printf 'x%.0s' 1 2 3 >&2`);
    await expect.poll(() => short.stderrTail()).toBe('xxx');
  });

  it('keeps the last 4,096 bytes when what it kept and a later chunk together pass them', async () => {
    // The end is written only once the first part has been read, so the two arrive apart.
    const server = await start(`head -c 5000 /dev/zero | tr '\\0' e >&2; read -r _; printf END >&2; exec sleep 300`);
    await expect.poll(() => server.stderrTail().length).toBe(4096);
    server.write('go');
    await expect.poll(() => server.stderrTail().endsWith('END')).toBe(true);
    expect(server.stderrTail()).toBe(`${'e'.repeat(4093)}END`);
  });

  it('counts what a server that does not read has left in its pipe, and writes lines to one that does', async () => {
    const deaf = await start('exec sleep 30');
    expect(deaf.queuedBytes()).toBe(0);
    for (let i = 0; i < 64; i++) deaf.write('x'.repeat(16 * 1024));
    expect(deaf.queuedBytes()).toBeGreaterThan(0);
    const echo = await start('read -r line; printf "got:%s" "$line"');
    echo.write('{"id":1}');
    expect(await stdoutOf(echo)).toBe('got:{"id":1}');
  });

  it('holds the lines of one turn for one write at its end, counting them as unread until then', async () => {
    const deaf = await start('exec sleep 30');
    deaf.write('{"id":1}');
    deaf.write('{"id":2}');
    // Held, not yet in the pipe: a server's bound sees them all the same.
    expect(deaf.queuedBytes()).toBe(18);
    await new Promise((resolve) => setImmediate(resolve));
    // Written: a pipe takes 18 bytes whole, so nothing is left in the broker.
    expect(deaf.queuedBytes()).toBe(0);
    const echo = await start('head -n 3');
    for (const id of [1, 2, 3]) echo.write(`{"id":${id}}`);
    expect(await stdoutOf(echo)).toBe('{"id":1}\n{"id":2}\n{"id":3}\n');
  });

  it('refuses a server that cannot be started, naming it', async () => {
    // Started as it is: through setpriv the spawn succeeds and the exec then fails, reported as an exit.
    const missing = { ...spec(''), command: '/nonexistent/server' };
    await expect(ServerProcess.start(missing, [])).rejects.toThrow(UpstreamError);
    await expect(ServerProcess.start(missing, [])).rejects.toThrow(/^cannot start server "notes": spawn \/nonexistent\/server ENOENT$/);
  });

  it("gives the server only PATH, HOME and TMPDIR of the broker's environment, and the operator's variables", async () => {
    const env = await stdoutOf(await start('env', { NOTES_API_TOKEN: 'for-notes' }));
    const names = env.trim().split('\n').map((line) => line.slice(0, line.indexOf('=')));
    expect(names.filter((name) => !['PWD', 'SHLVL', '_'].includes(name)).sort()).toEqual(
      ['HOME', 'NOTES_API_TOKEN', 'PATH', 'TMPDIR'].filter((name) => name === 'NOTES_API_TOKEN' || process.env[name] !== undefined),
    );
    expect(env).toContain('NOTES_API_TOKEN=for-notes\n');
  });

  it('leads a group of its own, and close() stops the whole group, a child of the server included', async () => {
    const server = await start('sleep 300 & exec sleep 300');
    await expect.poll(() => liveMembers(server.pid)).toHaveLength(2);
    await server.close();
    expect(await server.exited).toBe('was killed by SIGTERM');
    await expect.poll(() => liveMembers(server.pid)).toEqual([]);
    // Closing again, and writing after, are harmless.
    await server.close();
    server.write('late');
  });

  it('asks the group to end with SIGTERM first: a server that ends on it is not killed', async () => {
    const server = await start("trap 'echo terminated; exit 0' TERM; echo ready; sleep 300 & wait");
    const stdout = stdoutSoFar(server);
    await expect.poll(stdout).toBe('ready\n');
    expect(await settlesWithin(server.close(), 1000)).toBe(true);
    expect(await server.exited).toBe('exited with code 0');
    expect(stdout()).toBe('ready\nterminated\n');
  });

  it('is closed, its whole group, when the broker closes every server it tracks (as on SIGTERM)', async () => {
    const server = await start('sleep 300 & exec sleep 300');
    await expect.poll(() => liveMembers(server.pid)).toHaveLength(2);
    await reaper.closeAll();
    expect(await server.exited).toBe('was killed by SIGTERM');
    await expect.poll(() => liveMembers(server.pid)).toEqual([]);
  });

  it('has its group watched only when it leads one and group-dies-with-broker is on; the watcher goes with the group', async () => {
    const watched = await start('exec sleep 300');
    expect(watchersOf(watched.pid)).toHaveLength(1);
    // A watcher is started with the server, so by now one that should not exist would be there.
    const unwatched = await start('exec sleep 300', {}, ALL_GUARDS.process.filter((guard) => guard.name !== 'group-dies-with-broker'));
    const groupless = await start('exec sleep 300', {}, ALL_GUARDS.process.filter((guard) => guard.name !== 'own-process-group'));
    expect(watchersOf(unwatched.pid)).toEqual([]);
    expect(watchersOf(groupless.pid)).toEqual([]);
    await watched.close();
    // Dismissed once nothing is left: a watcher kept would later kill whatever reuses the pid.
    await expect.poll(() => watchersOf(watched.pid)).toEqual([]);
  });

  it('kills a group that ignores SIGTERM with SIGKILL once the grace has passed', async () => {
    const server = await start("trap '' TERM; sleep 300 & wait; wait");
    await expect.poll(() => liveMembers(server.pid)).toHaveLength(2);
    const closing = server.close();
    expect(await settlesWithin(closing, 1000)).toBe(false);
    await closing;
    await expect.poll(() => liveMembers(server.pid)).toEqual([]);
    expect(await server.exited).toBe('was killed by SIGKILL');
  }, 10_000);

  it('without own-process-group, runs in the broker\u2019s group and signals the server alone', async () => {
    const server = await start('exec sleep 300', {}, ALL_GUARDS.process.filter((guard) => guard.name !== 'own-process-group'));
    expect(liveMembers(server.pid)).toEqual([]);
    await server.close();
    expect(await waitDead(server.pid)).toBe(true);
  });
});

describe('settlesWithin', () => {
  it('says whether the promise settled in time, rejection included', async () => {
    expect(await settlesWithin(Promise.resolve(), 1000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error('x')).catch(() => undefined), 1000)).toBe(true);
    expect(await settlesWithin(new Promise(() => undefined), 10)).toBe(false);
    expect(await settlesWithin(new Promise(() => undefined), -5)).toBe(false);
  });

  it('waits as long as it takes for a non-finite bound, with no timer', async () => {
    let resolve!: () => void;
    const later = new Promise<void>((r) => (resolve = r));
    const waiting = settlesWithin(later, Infinity);
    // Later than the 1 ms a timer of Infinity would really wait.
    setTimeout(resolve, 50);
    expect(await waiting).toBe(true);
  });

  it('waits up to the bound for a promise that settles later than at once', async () => {
    let resolve!: () => void;
    const later = new Promise<void>((r) => (resolve = r));
    const waiting = settlesWithin(later, 5000);
    setTimeout(resolve, 20);
    expect(await waiting).toBe(true);
  });
});
