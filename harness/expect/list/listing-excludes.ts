import { everyString } from '../../observe/strings.js';
import { expectation } from '../types.js';
import { carrierOf } from '../../observe/spellings.js';

/**
 * What must not reach the agent anywhere in the listing: every string of every tool offered,
 * keys included (name, title, description, every schema string, annotations, `_meta`), so a
 * server's text carried in a member no other expectation reads is still judged.
 */
export default expectation({
  block: 'list',
  name: 'listing_excludes',
  doc: 'strings that appear nowhere in the listing the agent receives: no string (keys included) of any tool offered holds one (found as written or respelt: compatibility forms, any case)',
  properties: { listing_excludes: { $ref: '#/$defs/fragments' } },
  checks: { 'list.listing_excludes': { class: 'harm', doc: 'what the server hid anywhere in a tool it lists does not reach the agent' } },
  judge(expect, { tools }, _judged, fail) {
    const strings = everyString(tools);
    for (const fragment of expect.listing_excludes ?? []) {
      const holder = carrierOf(strings, fragment);
      if (holder !== undefined) fail('list.listing_excludes', `listing excludes ${JSON.stringify(fragment)}`, 'absent', `present: ${holder.slice(0, 200)}`);
    }
  },
});
