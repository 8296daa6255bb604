/**
 * The program behind every URL opener the harness puts in a broker's way (url-openers.ts):
 * `node url-opener-recorder.js <ledger> <opener> [args...]`. It appends one `opened` record with
 * the arguments as it received them, and does nothing else: no browser starts, no file is made,
 * and a shell metacharacter in an argument stays a character.
 */
import { Ledger } from '../../servers/kit/ledger.js';

const [ledgerPath, opener, ...args] = process.argv.slice(2);
if (ledgerPath === undefined || opener === undefined) {
  process.stderr.write('usage: url-opener-recorder <ledger> <opener> [args...]\n');
  process.exit(2);
}
new Ledger(ledgerPath).append({ ev: 'opened', opener, args });
