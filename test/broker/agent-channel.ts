// An agent on a pair of in-memory streams, for the tests that run the broker's commands in this
// process: it sends its lines one at a time, each after the answers before it, then ends its input.

import { PassThrough } from 'node:stream';
import { waitFor } from './e2e-helpers.js';

/** The agent's opening, and a listing. */
export const INITIALIZE = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
export const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
export const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

export interface AgentChannel {
  readonly input: PassThrough;
  readonly output: PassThrough;
}

/** Runs `start` on a fresh channel, the agent sending `lines`; what it returned, and what it wrote. */
export async function converse<T>(start: (channel: AgentChannel) => Promise<T>, lines: readonly string[]): Promise<{ result: T; out: string }> {
  const channel = { input: new PassThrough(), output: new PassThrough() };
  let out = '';
  channel.output.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const running = start(channel);
  // Each line waits for the answers before it, so the session sees the agent's order.
  for (const [index, line] of lines.entries()) {
    channel.input.write(`${line}\n`);
    const id = JSON.parse(line).id;
    if (id !== undefined) await waitFor(() => out.split('\n').some((answer) => answer.startsWith(`{"jsonrpc":"2.0","id":${id},`)), `the answer to request ${id} (line ${index})`, 10_000);
  }
  channel.input.end();
  const result = await running;
  return { result, out };
}

/** The JSON-RPC messages in what the broker wrote, one per line. */
export function messagesIn(out: string): any[] {
  return out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}
