import { describeLaunch, openedRecords } from '../../observe/url-openers.js';
import { expectation } from '../types.js';

/**
 * A URL the server chose reaches a URL opener with the shell payload it carried still whole: a
 * launch through a shell (`cmd.exe /c start`, PowerShell's `Start`, `sh -c`) would run it. The
 * recorder itself runs nothing, so the argument is the evidence, whatever happened next.
 */
export default expectation({
  block: 'scenario',
  name: 'opened_excludes',
  doc: '`opened_excludes`: texts (the payload a server put in a URL, unescaped) no argument of any URL opener the candidate started may contain',
  properties: { opened_excludes: { $ref: '#/$defs/fragments' } },
  hook: 'oauth-client',
  checks: { 'opened.excludes': { class: 'harm', doc: "no URL opener was handed a server's shell payload unescaped" } },
  judge({ opened_excludes: texts }, _facts, { records }, fail) {
    for (const record of openedRecords(records)) {
      for (const text of texts ?? []) {
        if (record.args.some((arg) => arg.includes(text))) fail('opened.excludes', `no opener is handed ${JSON.stringify(text)}`, 'absent', describeLaunch(record));
      }
    }
  },
});
