// The program action.yml runs for its steps: `node dist/harness/ci/action-step.js run|summary`.
// Kept apart from the steps themselves so that a test can import those without running one.

import { runStep, summaryStep } from './github-action.js';

const steps: Record<string, () => void | Promise<void>> = { run: runStep, summary: summaryStep };
const step = steps[process.argv[2] ?? ''];
if (step === undefined) {
  process.stderr.write(`usage: node ${process.argv[1]} ${Object.keys(steps).join(' | ')} (a step of action.yml)\n`);
  process.exitCode = 2;
} else {
  // A step that cannot do its part fails, and the action's last step then ends with exit 2.
  Promise.resolve()
    .then(step)
    .catch((error: unknown) => {
      process.stderr.write(`mcp-gauntlet action: ${(error as Error).message}\n`);
      process.exitCode = 2;
    });
}
