import { describeLaunch, launchedUrls, openedRecords } from '../../observe/url-openers.js';
import { expectation } from '../types.js';

/**
 * Whatever a URL opener is handed is an https page: a `file:` path, a `javascript:` URL or a
 * scheme some installed program registered for is the server choosing what runs on the user's
 * machine, and a launch naming no URL at all is an opener used for something else.
 */
export default expectation({
  block: 'scenario',
  name: 'opened_https_only',
  doc: '`opened_https_only: true`: every URL opener the candidate started was handed an https URL and nothing of another scheme',
  properties: { opened_https_only: { const: true } },
  hook: 'oauth-client',
  checks: { 'opened.https_only': { class: 'harm', doc: 'every URL opener was handed an https URL, and no other scheme' } },
  judge({ opened_https_only: wanted }, _facts, { records }, fail) {
    if (wanted !== true) return;
    for (const record of openedRecords(records)) {
      const urls = launchedUrls(record);
      const other = urls.find(({ url }) => url.protocol !== 'https:');
      if (other !== undefined || urls.length === 0) fail('opened.https_only', 'an opener is handed only https URLs', 'https', describeLaunch(record));
    }
  },
});
