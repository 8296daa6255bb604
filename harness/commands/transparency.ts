import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { loadCandidate } from '../candidates/registry.js';
import { parseOptions, parseStepTimeout, UsageError } from '../run/options.js';
import { runTransparency, TRANSPARENCY_SUITES } from '../transparency/registry.js';
import { describeScore } from '../transparency/score.js';

/**
 * `gauntlet transparency`: the transparency suites alone against one candidate, each operation's
 * verdict on stdout, the whole as JSON with `--out`. Exit 0 when nothing is broken, 1 otherwise.
 */
export async function transparencyCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions({
    args: argv,
    options: { candidate: { type: 'string', default: 'reference' }, suite: { type: 'string', multiple: true }, out: { type: 'string' }, 'step-timeout': { type: 'string' } },
  });
  const known = TRANSPARENCY_SUITES.map((suite) => suite.name);
  const unknown = (values.suite ?? []).filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new UsageError(`unknown transparency suite ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const stepTimeoutMs = parseStepTimeout(values['step-timeout']);
  const candidate = await loadCandidate(values.candidate);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`mcp-gauntlet: transparency of ${candidate.info.name}: ${(values.suite ?? known).join(', ')}`);
  const report = await runTransparency(
    candidate,
    { stepTimeoutMs, onSession: (suite, session, ms) => log(`  ${suite} ${session}: ${(ms / 1000).toFixed(1)} s (direct and through the candidate)`) },
    values.suite,
  ).finally(() => candidate.dispose?.());
  for (const result of report.results) {
    process.stdout.write(`${result.verdict.padEnd(14)} ${result.suite} ${result.id}${result.requirement ? ` [${result.requirement}]` : ''}${result.verdict === 'preserved' ? '' : `: ${result.detail}`}\n`);
  }
  log(`transparency: ${describeScore(report.score)}; ${report.score.not_applicable} not applicable, ${report.score.unsupported} unsupported; ${(report.duration_ms / 1000).toFixed(1)} s`);
  if (values.out !== undefined) {
    const out = resolve(values.out);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  }
  return report.score.broken === 0 ? 0 : 1;
}
