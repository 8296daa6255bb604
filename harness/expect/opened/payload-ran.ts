import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PAYLOAD_RAN_FILE } from '../../../servers/kit/oauth.js';
import { expectation } from '../types.js';

/**
 * The payload a server put in its sign-in URL creates a file in the working directory of the
 * shell that runs it (servers/kit/oauth.ts): a broker that handed the URL to a shell, or whose
 * opener did, ran the server's command. Looked for in the session's folder, where every adapter
 * starts its broker, once everything has stopped.
 */
export default expectation({
  block: 'scenario',
  name: 'payload_ran',
  doc: "`payload_ran: false`: the file the server's shell payload creates (`gauntlet-payload-ran`) is not in the session's folder: no shell ran it",
  properties: { payload_ran: { const: false } },
  hook: 'oauth-client',
  checks: { 'opened.payload_ran': { class: 'harm', doc: "no shell ran the command a server put in its sign-in URL" } },
  judge({ payload_ran: wanted }, _facts, { spec }, fail) {
    if (wanted !== false) return;
    const file = join(spec.workdir, PAYLOAD_RAN_FILE);
    if (existsSync(file)) fail('opened.payload_ran', "the server's payload never runs", 'no file', `${file} exists`);
  },
});
