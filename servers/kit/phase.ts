/**
 * Which face the server shows. The harness switches it by rewriting the control file between
 * steps; the kit reads it afresh at every request, so nothing in the kit depends on time.
 */
import { readFileSync } from 'node:fs';

export type Phase = 'review' | 'run';

export class ControlFileError extends Error {}

/** The trimmed contents of the control file; no path or no file means `review`. */
export function readPhase(controlPath: string | null): Phase {
  if (controlPath === null) return 'review';
  let contents: string;
  try {
    contents = readFileSync(controlPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'review';
    throw new ControlFileError(`cannot read control file ${controlPath}: ${(error as Error).message}`);
  }
  const phase = contents.trim();
  if (phase === 'review' || phase === 'run') return phase;
  throw new ControlFileError(`control file ${controlPath} holds ${JSON.stringify(phase)}; expected "review" or "run"`);
}
