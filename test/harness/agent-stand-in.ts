// A stand-in broker on a line channel, for the agent's tests: its other side sends back, for each
// message the agent sends, the messages `reply` gives, and a test may send more of its own.

import type { AgentChannel, ExitStatus } from '../../harness/candidates/types.js';

export type Message = { id?: number; method?: string; params?: Record<string, unknown> };

export function standInBroker(reply: (message: Message) => unknown[]): { channel: AgentChannel; sent: Message[]; push: (message: unknown) => void } {
  const sent: Message[] = [];
  let deliver: (line: string) => void = () => {};
  const channel: AgentChannel = {
    send(line) {
      const message = JSON.parse(line) as Message;
      sent.push(message);
      for (const out of reply(message)) queueMicrotask(() => deliver(JSON.stringify(out)));
    },
    onLine(handler) {
      deliver = handler;
    },
    exited: new Promise<ExitStatus>(() => {}),
    pid: undefined,
    close: async () => {},
  };
  return { channel, sent, push: (message) => deliver(JSON.stringify(message)) };
}

/** A stand-in broker that answers each request the agent sends with `answer(message)` as its result (undefined: nothing). */
export function standIn(answer: (message: Message) => unknown): { channel: AgentChannel; sent: Message[] } {
  return standInBroker((message) => {
    const result = answer(message);
    return result === undefined ? [] : [{ jsonrpc: '2.0', id: message.id, result }];
  });
}
