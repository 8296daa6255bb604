// Guards on a JSON-RPC error the server answers a call with. The error goes to the agent in place
// of a result, past every result guard, so what the server wrote in it is made safe here.

import { member, object, plain, stringValue } from '../json/tree.js';
import { escapeServerText } from '../inspect/sanitize.js';
import type { ErrorGuard } from './types.js';

export const serverErrorEscaped: ErrorGuard = {
  name: 'server-error-escaped',
  // The message is the server's text: escaped as in the load report, it cannot forge a line,
  // move the terminal's cursor or hide characters from whoever reads it. `data` is free-form JSON
  // that nothing inspects, so it is left out rather than passed on unread.
  reshape: (error) =>
    object([
      ['code', member(error, 'code')],
      ['message', plain(escapeServerText(stringValue(member(error, 'message')) ?? ''))],
    ]),
};
