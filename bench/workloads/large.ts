import type { Answer } from '../../harness/agent/client.js';
import { residentGrowthMib } from '../../harness/observe/memory.js';
import type { WrittenRecord } from '../../servers/kit/ledger.js';
import { elapsedMs, now } from '../clock.js';
import { describeAnswer, type BenchSession } from '../session.js';
import { CHEAP_TOOL, type Outcome } from './calls.js';

const MIB = 1024 * 1024;

/** The kit's knobs for an answer of `bytes` to the cheap tool, streamed, with a ledger mark at every MiB. */
export function largeAnswerKnobs(bytes: number): Record<string, string> {
  return { [`result.${CHEAP_TOOL}`]: `bytes-${bytes}`, mark_every: String(MIB) };
}

/** A number the agent decoded losslessly (a LosslessNumber) or plainly; undefined for anything else. */
function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' || (typeof value === 'object' && value !== null) ? Number(String(value)) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** What the answer says in a few words, and the bound it names (`max_bytes` of a result_too_large refusal). */
function readAnswer(answer: Answer): { said: string; bound?: number } {
  if (answer.kind !== 'result') return { said: describeAnswer(answer) };
  const structured = answer.result.structuredContent as Record<string, unknown> | undefined;
  const code = typeof structured?.code === 'string' ? structured.code : undefined;
  const bound = numberOf(structured?.max_bytes);
  if (answer.result.isError === true) return { said: `refused${code === undefined ? '' : ` with ${code}`}${bound === undefined ? '' : ` naming a bound of ${bound} bytes`}`, ...(bound === undefined ? {} : { bound }) };
  return { said: `delivered (${answer.raw.length} characters)` };
}

/**
 * One call answered with a line far past any result bound. Measured: the resident growth of the
 * broker's process group across the call, its server left out (harness/observe/memory.ts); from
 * the server's own `written` marks, how much it had written when the answer reached the agent, and,
 * when the broker names its bound, how long after the server crossed it the answer arrived.
 */
export async function largeAnswer(session: BenchSession, timeoutMs: number): Promise<Outcome<{ growthMib?: number; afterBoundMs?: number; writtenMib: number }>> {
  const pgid = session.channel.pid;
  if (pgid === undefined) return { notes: ['the broker has no process group to measure'] };
  let answer: Answer = { kind: 'timeout' };
  let answeredAt = now();
  const measurement = await residentGrowthMib(
    pgid,
    async () => {
      answer = await session.client.callTool(session.offered(CHEAP_TOOL), { query: 'budget' }, { timeoutMs });
      answeredAt = now();
    },
    { exclude: session.serverPids() },
  );
  const { said, bound } = readAnswer(answer);
  const notes = [`answer: ${said}`];
  if (measurement.kind === 'unreadable') notes.push('resident memory cannot be read on this machine (/proc)');
  if (measurement.kind === 'died') notes.push('the broker was gone by the end of the call: no growth measured');
  const marks = session.ledger.read().filter((record): record is WrittenRecord => record.ev === 'written');
  const before = marks.filter((mark) => BigInt(mark.mono_ns) <= answeredAt);
  const writtenMib = (before.at(-1)?.bytes ?? 0) / MIB;
  const crossing = bound === undefined ? undefined : marks.find((mark) => mark.bytes >= bound);
  const afterBoundMs = crossing === undefined ? undefined : elapsedMs(BigInt(crossing.mono_ns), answeredAt);
  if (bound !== undefined && crossing === undefined) notes.push(`the server never reached the ${bound}-byte bound the broker named`);
  return {
    measured: {
      writtenMib,
      ...(measurement.kind === 'measured' ? { growthMib: measurement.growthMib } : {}),
      ...(afterBoundMs === undefined ? {} : { afterBoundMs }),
    },
    notes,
  };
}
