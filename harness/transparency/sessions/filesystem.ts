import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { call, LISTINGS, type SessionScript } from '../script.js';

/**
 * server-filesystem over a fresh root with seeded files (servers.ts): every tool, reads before
 * and after each write, in an order where each write's effect is read back. The agent declares
 * roots and names the same root, so the server keeps the root it was started with.
 */
export const filesystemSession: SessionScript = {
  server: 'filesystem',
  transports: ['stdio'],
  side: ({ root }) => ({ roots: [{ uri: pathToFileURL(root).href, name: 'root' }] }),
  skipped: {},
  operations: ({ root }) => {
    const at = (path: string) => join(root, path);
    return [
      ...LISTINGS,
      call('list_allowed_directories', {}),
      call('list_directory', { path: root }),
      call('list_directory_with_sizes', { path: root, sortBy: 'size' }),
      call('directory_tree', { path: root }),
      call('read_text_file', { path: at('notes/alpha.txt') }),
      call('read_text_file', { path: at('notes/alpha.txt'), head: 2 }, { as: 'head' }),
      call('read_text_file', { path: at('notes/alpha.txt'), tail: 1 }, { as: 'tail' }),
      call('read_file', { path: at('notes/plan.md') }),
      call('read_multiple_files', { paths: [at('notes/alpha.txt'), at('data/sample.json')] }),
      call('read_media_file', { path: at('pixel.png') }),
      call('get_file_info', { path: at('data/sample.json') }),
      call('search_files', { path: root, pattern: '*.md' }),
      call('write_file', { path: at('notes/summary.txt'), content: 'The notes say alpha, beta, gamma.\n' }),
      call('edit_file', { path: at('notes/summary.txt'), edits: [{ oldText: 'gamma', newText: 'delta' }], dryRun: true }, { as: 'dry-run' }),
      call('edit_file', { path: at('notes/summary.txt'), edits: [{ oldText: 'gamma', newText: 'delta' }] }),
      call('create_directory', { path: at('archive') }),
      call('move_file', { source: at('notes/summary.txt'), destination: at('archive/summary.txt') }),
      call('read_text_file', { path: at('archive/summary.txt') }, { as: 'moved' }),
    ];
  },
};
