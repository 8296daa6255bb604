// A full garbage collection on demand, for the tests of what must survive one: a signal or a
// timer held only weakly is taken by the first collection after nothing holds it strongly.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** Collects every object nothing reaches (a new context is the one that sees the flag just set). */
export const collectGarbage = runInNewContext('gc') as () => void;
