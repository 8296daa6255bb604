// The two real bridges under test, reached over the HTTP channel as they are deployed, in front of
// the kit's hostile servers: a benign control gets its pass, and the attack it pairs with its
// verdict (a plain bridge forwards the poisoned description), never an error.

import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { runScenario } from '../../harness/run/execute.js';

const scenarios = loadCatalogue();
const scenario = (id: string) => {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
};

describe.each(['mcp-proxy', 'supergateway'])('%s over Streamable HTTP', (name) => {
  it('lists and calls through the kit: the control passes, the attack is exposed', async () => {
    const candidate = await loadCandidate(name);
    const [control, attack] = await Promise.all([
      runScenario(scenario('ins.sibling-mention-description'), candidate, { stepTimeoutMs: 15_000 }),
      runScenario(scenario('ins.poisoned-description-withheld'), candidate, { stepTimeoutMs: 15_000 }),
    ]);
    expect(control.outcome, control.reason).toBe('pass');
    expect(attack.outcome, attack.reason).toBe('fail');
    expect(attack.failure).toBe('exposed');
  }, 90_000);
});
