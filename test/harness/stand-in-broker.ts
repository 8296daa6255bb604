// A stand-in broker on a line channel, for the agent's tests: it answers each request the agent
// sends as the test says, and keeps what the agent sent.

import type { AgentChannel, ExitStatus } from '../../harness/candidates/types.js';

export type Message = { id?: number; method?: string; params?: Record<string, unknown> };

/** A channel whose other side answers each request the agent sends with `answer(message)` (undefined: nothing). */
export function standIn(answer: (message: Message) => unknown): { channel: AgentChannel; sent: Message[] } {
  const sent: Message[] = [];
  let deliver: (line: string) => void = () => {};
  const channel: AgentChannel = {
    send(line) {
      const message = JSON.parse(line) as Message;
      sent.push(message);
      const result = answer(message);
      if (result !== undefined) queueMicrotask(() => deliver(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })));
    },
    onLine(handler) {
      deliver = handler;
    },
    exited: new Promise<ExitStatus>(() => {}),
    pid: undefined,
    close: async () => {},
  };
  return { channel, sent };
}
