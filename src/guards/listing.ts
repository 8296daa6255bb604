// Guards over the listing as a whole. A server that pages forever, repeats a cursor, floods the
// broker with tools, or names one tool twice is refused outright: any tool set chosen from such
// a listing would be a choice the broker made for the server.

import type { ListingGuard } from './types.js';

export const listingBounds: ListingGuard = {
  name: 'listing-bounds',
  begin(limits) {
    const cursors = new Set<string>();
    let tools = 0;
    return (page) => {
      tools += page.tools.length;
      if (tools > limits.maxTools) return `the listing holds more than max_tools (${limits.maxTools}) tools`;
      if (page.nextCursor === undefined) return null;
      // Refused before the next page is asked for, so the server never gets more requests.
      if (page.number >= limits.maxPages) return `the listing goes on past max_pages (${limits.maxPages})`;
      if (cursors.has(page.nextCursor)) return `page ${page.number} names a cursor seen before`;
      cursors.add(page.nextCursor);
      return null;
    };
  },
};

export const listingUnique: ListingGuard = {
  name: 'listing-unique',
  begin() {
    const names = new Set<string>();
    return (page) => {
      for (const tool of page.tools) {
        if (names.has(tool.name)) return `the listing names "${tool.name}" twice`;
        names.add(tool.name);
      }
      return null;
    };
  },
};
