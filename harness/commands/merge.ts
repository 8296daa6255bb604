import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadCatalogue } from '../catalogue.js';
import { mergeShards, type ShardReport } from '../report/merge.js';
import type { Report } from '../report/summary.js';
import { readBaseline } from '../run/baseline.js';
import { finishReport } from '../run/finish.js';
import { parseOptions } from '../run/options.js';

async function readShard(dir: string): Promise<ShardReport> {
  const file = join(dir, 'report.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`${dir}: no report.json to merge (${(error as Error).message})`);
  }
  return { dir, report: JSON.parse(text) as Report };
}

/**
 * `gauntlet merge --report-dir OUT DIR...`: the report folders of every shard of one run made into
 * one report, written in every format a run writes, with the same exit codes as the run.
 */
export async function mergeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions({
    args: argv,
    options: { 'report-dir': { type: 'string' }, baseline: { type: 'string' }, 'write-baseline': { type: 'string' } },
    allowPositionals: true,
  });
  if (values['report-dir'] === undefined || positionals.length === 0) throw new Error('usage: gauntlet merge --report-dir OUT [--baseline FILE] SHARD_DIR...');
  const baseline = values.baseline === undefined ? undefined : readBaseline(resolve(values.baseline));
  const shards = await Promise.all(positionals.map((dir) => readShard(resolve(dir))));
  const merged = mergeShards(shards, loadCatalogue().map((s) => s.id));
  process.stderr.write(`mcp-gauntlet: merged ${shards.length} shard(s), ${merged.cases.length} scenario(s) of ${merged.candidate.name}\n`);
  return finishReport(merged, {
    reportDir: resolve(values['report-dir']),
    ...(baseline === undefined ? {} : { baseline }),
    ...(values['write-baseline'] === undefined ? {} : { writeBaselineTo: resolve(values['write-baseline']) }),
    log: (line) => process.stderr.write(`${line}\n`),
  });
}
