// A Stryker reporter that appends each tested mutant to reports/tmp/mutation-progress.jsonl as
// soon as its result is known, so that a run stopped before its end (a loaded machine, a
// deadline) still leaves what it measured; write-report.mjs reads the file like a JSON report.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const FILE = 'reports/tmp/mutation-progress.jsonl';

class ProgressReporter {
  onMutationTestingPlanReady({ mutantPlans }) {
    mkdirSync(dirname(FILE), { recursive: true });
    writeFileSync(FILE, `${JSON.stringify({ planned: mutantPlans.length })}\n`);
  }
  onMutantTested(result) {
    const { fileName, id, mutatorName, replacement, status, location, static: isStatic, statusReason } = result;
    const line = { fileName: relative(process.cwd(), fileName), id, mutatorName, replacement, status, location, static: isStatic, statusReason };
    appendFileSync(FILE, `${JSON.stringify(line)}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'progress-file', ProgressReporter)];
