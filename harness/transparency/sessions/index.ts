import type { SessionScript } from '../script.js';
import { everythingSession } from './everything.js';
import { filesystemSession } from './filesystem.js';
import { memorySession } from './memory.js';
import { sequentialThinkingSession } from './sequential-thinking.js';

/** Every official server's scripted session, in the order the suite runs them. */
export const SESSIONS: readonly SessionScript[] = [everythingSession, filesystemSession, memorySession, sequentialThinkingSession];
