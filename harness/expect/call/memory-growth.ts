import { expectation } from '../types.js';

/** Measured over the candidate's whole process group while the call runs (harness/observe/memory.ts). */
export default expectation({
  block: 'call',
  name: 'memory_growth_max_mib',
  doc: "bound on the growth of the candidate's resident memory (its whole process group) across this call, in MiB; a candidate that dies while measured fails",
  properties: { memory_growth_max_mib: { type: 'integer', minimum: 1 } },
  checks: { 'call.memory_growth_max_mib': { class: 'harm', doc: 'the candidate held a bounded amount of what the server sent, and lived' } },
  judge(expect, { memory }, _judged, fail) {
    if (memory?.kind === 'died') fail('call.memory_growth_max_mib', 'bounded memory', 'the candidate alive while measured', 'it exited during the call');
    else if (memory && memory.growthMib > expect.memory_growth_max_mib!) fail('call.memory_growth_max_mib', 'bounded memory', `under ${expect.memory_growth_max_mib} MiB growth`, `${memory.growthMib.toFixed(1)} MiB`);
  },
});
