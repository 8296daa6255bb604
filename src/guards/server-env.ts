// The guard that keeps the values of the server's environment from the agent, at the two points
// where the server's words reach it: a call's result and a call's JSON-RPC error.

import { redactor, redactValue } from '../result/redact.js';
import type { ErrorGuard, ResultGuard } from './types.js';

const NAME = 'redact-server-env';

export const redactServerEnvResult: ResultGuard = {
  name: NAME,
  check(result, { serverEnv }) {
    const redact = redactor(serverEnv);
    return { kind: 'pass', result: redact === undefined ? result : redactValue(result, redact) };
  },
};

export const redactServerEnvError: ErrorGuard = {
  name: NAME,
  reshape(error, serverEnv) {
    const redact = redactor(serverEnv);
    const redacted = redact === undefined ? error : redactValue(error, redact);
    return redacted.kind === 'object' ? redacted : error;
  },
};
