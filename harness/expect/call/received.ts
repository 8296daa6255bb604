import type { RecvRecord } from '../../../servers/kit/ledger.js';
import { callsTo } from '../../observe/ledger.js';
import type { CallFacts, Judged } from '../types.js';

/** The calls of its tool the server received from a call step until the next step calling it. */
export const receivedBy = (facts: CallFacts, { records }: Judged): RecvRecord[] => callsTo(records.slice(facts.mark, facts.next), facts.serverTool);
