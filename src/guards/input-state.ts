// The multi round-trip state (MCP 2026-07-28, basic/patterns/mrtr.mdx) as the broker keeps it
// between a server's `input_required` answer and the agent's retry. mrtr.mdx: "servers MUST treat
// requestState as an attacker-controlled input", and many do not: a server that keeps
// `{"confirmed":false}` in its state carries out a call whose state says otherwise. With this guard
// the agent never holds the server's state: it is shown a random handle of the broker's, bound to
// the session and to the call (tool and arguments), redeemed once, and the server's state goes
// back only on that call's retry (src/session/input-required.ts, InputHandles). Without it the
// broker passes the server's state to the agent and forwards whatever state a retry carries.

import type { InputStateGuard } from './types.js';

export const requestStateBound: InputStateGuard = { name: 'request-state-bound' };
