import { launches, serverPids } from '../observe/ledger.js';
import { survivorsAfter } from '../observe/processes.js';
import { expectation, type Block, type Expectation } from './types.js';

/** How long processes get to disappear after a broker reports it stopped them. */
const DEATH_DEADLINE_MS = 3_000;

/** The survivors count, in the blocks that have one: after a refused start, a call, a close, a kill. */
type SurvivorBlock = Extract<Block, 'start' | 'call' | 'close' | 'kill_candidate'>;

const EVENT: Record<SurvivorBlock, string> = { start: 'the refusal', call: 'the answer', close: 'close', kill_candidate: "the candidate's death" };

/**
 * How many hostile-server processes (the launches and the descendants they spawned, from the
 * ledger, looked up in /proc) are alive after the step's event. The ledger must show a launch
 * first: with no server started, nothing can be alive and the count would prove nothing.
 */
function survivors<B extends SurvivorBlock>(block: B, deadline: 'own' | 'default'): Expectation<B> {
  const id = `${block}.servers_alive`;
  return expectation<B>({
    block,
    name: 'servers_alive',
    doc:
      deadline === 'own'
        ? 'how many server processes (ledger `launch` and `spawn` pids, read in /proc) may still be alive `within_ms` after the event'
        : `how many server processes may still be alive ${DEATH_DEADLINE_MS} ms after ${EVENT[block]}`,
    properties:
      deadline === 'own'
        ? { servers_alive: { type: 'integer', minimum: 0 }, within_ms: { type: 'integer', minimum: 1, maximum: 2500 } }
        : { servers_alive: { type: 'integer', minimum: 0 } },
    ...(deadline === 'own' ? { required: ['servers_alive', 'within_ms'] } : {}),
    checks: {
      [id]: { class: 'harm', doc: 'no more server processes outlive the event than allowed' },
      [`${block}.server_launched`]: { class: 'benign', doc: 'a server was launched, so its survival means something' },
    },
    async observe(expect, facts, live) {
      const { within_ms: withinMs } = expect as { within_ms?: number };
      const scope = block === 'start' ? live.records().slice(facts.mark) : live.records();
      facts.survivors = await survivorsAfter(serverPids(scope), withinMs ?? DEATH_DEADLINE_MS);
    },
    judge(expect, facts, { records }, fail) {
      const { servers_alive: most, within_ms: withinMs } = expect as { servers_alive: number; within_ms?: number };
      const scope = block === 'start' ? records.slice(facts.mark, facts.end) : records.slice(0, facts.end);
      if (launches(scope).length === 0) fail(`${block}.server_launched`, 'server launched', 'a server launch to watch', 'none in the ledger');
      const alive = facts.survivors ?? [];
      if (alive.length <= most) return;
      const when = withinMs === undefined ? `after ${EVENT[block]}` : `within ${withinMs} ms of ${EVENT[block]}`;
      fail(id, `servers stopped ${when}`, `at most ${most} alive`, `${alive.length} alive (pids ${alive.join(', ')})`);
    },
  });
}

export const startSurvivors = survivors('start', 'default');
export const callSurvivors = survivors('call', 'default');
export const closeSurvivors = survivors('close', 'own');
export const killSurvivors = survivors('kill_candidate', 'own');
