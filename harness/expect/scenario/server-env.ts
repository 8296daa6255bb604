import { launches } from '../../observe/ledger.js';
import { expectation } from '../types.js';

/** What each server launch received in its environment, from the ledger's launch records. */
export default expectation({
  block: 'scenario',
  name: 'server_env',
  doc: 'variables every server launch must not have (`absent`), must have (`present`), must have with exactly this value (`equals`), and texts no variable may hold (`values_exclude`: the broker\'s own secrets); read from the ledger',
  properties: {
    server_env: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        absent: { $ref: '#/$defs/names' },
        present: { $ref: '#/$defs/names' },
        equals: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
        values_exclude: { $ref: '#/$defs/fragments' },
      },
    },
  },
  checks: {
    'server_env.launched': { class: 'benign', doc: 'a server launch to inspect' },
    'server_env.absent': { class: 'harm', doc: 'the server never received the variable' },
    'server_env.present': { class: 'benign', doc: 'the server received what the operator gave it' },
    'server_env.equals': { class: 'benign', doc: 'the server received the value as the operator wrote it' },
    'server_env.values_exclude': { class: 'harm', doc: "no variable of the server holds the broker's own secret" },
  },
  judge({ server_env: expect }, _facts, { records }, fail) {
    if (!expect) return;
    const started = launches(records);
    if (started.length === 0) fail('server_env.launched', 'server launched', 'a launch to inspect', 'none');
    for (const launch of started) {
      for (const name of expect.absent ?? []) if (name in launch.env) fail('server_env.absent', `server never receives ${name}`, 'absent', `present in pid ${launch.pid}`);
      for (const name of expect.present ?? []) if (!(name in launch.env)) fail('server_env.present', `server receives ${name}`, 'present', `absent in pid ${launch.pid}`);
      for (const [name, value] of Object.entries(expect.equals ?? {})) {
        const got = launch.env[name];
        if (got !== value) fail('server_env.equals', `server receives ${name} as written`, value, got === undefined ? `absent in pid ${launch.pid}` : got);
      }
      for (const text of expect.values_exclude ?? []) {
        const holders = Object.entries(launch.env).filter(([, value]) => typeof value === 'string' && value.includes(text)).map(([name]) => name);
        if (holders.length > 0) fail('server_env.values_exclude', `server never receives ${JSON.stringify(text)}`, 'in no variable', `in ${holders.join(', ')} of pid ${launch.pid}`);
      }
    }
  },
});
