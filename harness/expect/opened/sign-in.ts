import { describeLaunch, launchedUrls, openedRecords } from '../../observe/url-openers.js';
import { expectation } from '../types.js';

/**
 * An honest server's sign-in page reaches the user: exactly one launch, of an https URL on the
 * loopback server with the path the metadata named. A broker that signs in some other way (it
 * prints the URL, or refuses) is still judged by what it did: no launch fails this check.
 */
export default expectation({
  block: 'scenario',
  name: 'opened_path',
  doc: '`opened_path`: the candidate started a URL opener exactly once, handing it an https URL with this path (the honest sign-in page)',
  properties: { opened_path: { type: 'string', pattern: '^/' } },
  hook: 'oauth-client',
  checks: { 'opened.sign_in': { class: 'benign', doc: "the honest sign-in page was opened once, as the server's metadata named it" } },
  judge({ opened_path: path }, _facts, { records }, fail) {
    if (path === undefined) return;
    const launches = openedRecords(records);
    const matching = launches.filter((record) => launchedUrls(record).some(({ url }) => url.protocol === 'https:' && url.pathname === path));
    if (launches.length !== 1 || matching.length !== 1) {
      fail('opened.sign_in', `one launch of https://...${path}`, 'one', launches.length === 0 ? 'no launch' : launches.map(describeLaunch).join('; '));
    }
  },
});
