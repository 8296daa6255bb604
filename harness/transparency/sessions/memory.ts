import { call, LISTINGS, type SessionScript } from '../script.js';

/** server-memory over a fresh memory file: build a small graph, read and search it, then take it apart. */
export const memorySession: SessionScript = {
  server: 'memory',
  transports: ['stdio'],
  side: () => ({}),
  readListed: true,
  skipped: {},
  operations: () => [
    call('create_entities', {
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['writes programs'] },
        { name: 'Engine', entityType: 'machine', observations: ['computes tables'] },
      ],
    }),
    call('create_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programs' }] }),
    call('add_observations', { observations: [{ entityName: 'Ada', contents: ['born in 1815'] }] }),
    ...LISTINGS,
    call('read_graph', {}),
    call('search_nodes', { query: 'Ada' }),
    call('open_nodes', { names: ['Engine'] }),
    call('delete_observations', { deletions: [{ entityName: 'Ada', observations: ['born in 1815'] }] }),
    call('delete_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programs' }] }),
    call('delete_entities', { entityNames: ['Engine'] }),
    call('read_graph', {}, { as: 'after' }),
  ],
};
