// The guard on the host of a URL the broker passes on for a person to open (a URL-mode
// elicitation): a host whose letters come from other scripts but read as an ASCII host
// (`pаypal.com` with a Cyrillic а, or its punycode `xn--pypal-4ve.com`, shown to the user as the
// same letters) sends the user somewhere other than where they think. Each label is judged by the
// letters a person is shown (its Unicode form) and its confusable skeleton (src/normal/skeleton.ts):
// a label shown in non-ASCII letters whose skeleton is all ASCII is a look-alike of that ASCII
// label, and refused. A host in another script that looks like no ASCII name (`münchen.example`,
// `пример.example`) is passed: it is what it reads as. Its own module, since the confusables table
// it loads is needed only here.

import { domainToUnicode } from 'node:url';
import { member, stringValue } from '../json/tree.js';
import { skeleton } from '../normal/skeleton.js';
import { nameKey } from '../normal/name.js';
import type { ServerRequestGuard } from './types.js';

const ASCII = /^[\x00-\x7f]*$/;

/** The first label of `hostname` (as a URL parser gives it, ASCII) that reads as an ASCII label it is not. */
export function lookAlikeLabel(hostname: string): string | undefined {
  return domainToUnicode(hostname)
    .split('.')
    .find((label) => !ASCII.test(label) && ASCII.test(skeleton(nameKey(label))));
}

export const elicitationHostDistinct: ServerRequestGuard = {
  name: 'elicitation-host-distinct',
  methods: ['elicitation/create'],
  check(request) {
    const url = stringValue(member(request.params, 'url'));
    // Whether it is a URL at all is elicitation-url-whole's to judge; form mode has none.
    if (url === undefined || !URL.canParse(url)) return { kind: 'pass', params: request.params };
    const label = lookAlikeLabel(new URL(url).hostname);
    if (label === undefined) return { kind: 'pass', params: request.params };
    return { kind: 'refuse', reason: `the URL's host has a label in letters of another script that reads as the ASCII ${JSON.stringify(skeleton(nameKey(label)))}` };
  },
};
