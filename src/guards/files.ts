// Guards on the operator's files (the configuration, which holds the rules, and the manifest),
// judged on the file as opened, before a byte of it is believed. A file someone else could have
// written is a review someone else could have done.

import type { FileGuard } from './types.js';

const WRITABLE_BY_GROUP_OR_OTHERS = 0o022;

export const privateOperatorFiles: FileGuard = {
  name: 'private-operator-files',
  check(stats, uid) {
    if (!stats.isFile()) return 'is not a regular file';
    // No uid (Windows) means no Unix owner to compare; the mode bits mean nothing there either.
    if (uid === undefined) return null;
    if (stats.uid !== uid) return `is owned by uid ${stats.uid}, not by the user the broker runs as (${uid})`;
    if ((stats.mode & WRITABLE_BY_GROUP_OR_OTHERS) !== 0) return `is writable by ${(stats.mode & 0o020) !== 0 ? 'its group' : 'others'} (mode ${(stats.mode & 0o777).toString(8)})`;
    return null;
  },
};
