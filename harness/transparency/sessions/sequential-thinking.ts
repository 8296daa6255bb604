import { call, LISTINGS, type SessionScript } from '../script.js';

/** server-sequential-thinking: a short chain of thoughts with a revision and a branch. */
export const sequentialThinkingSession: SessionScript = {
  server: 'sequential-thinking',
  transports: ['stdio'],
  side: () => ({}),
  skipped: {},
  operations: () => [
    ...LISTINGS,
    call('sequentialthinking', { thought: 'List what the broker must keep.', nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 3 }),
    call('sequentialthinking', { thought: 'Check each answer arrives unchanged.', nextThoughtNeeded: true, thoughtNumber: 2, totalThoughts: 3 }, { as: 'second' }),
    call(
      'sequentialthinking',
      { thought: 'Revise: the list also holds notifications.', nextThoughtNeeded: true, thoughtNumber: 3, totalThoughts: 4, isRevision: true, revisesThought: 1 },
      { as: 'revision' },
    ),
    call(
      'sequentialthinking',
      { thought: 'A branch: what if the broker withholds images?', nextThoughtNeeded: false, thoughtNumber: 4, totalThoughts: 4, branchFromThought: 2, branchId: 'images' },
      { as: 'branch' },
    ),
  ],
};
