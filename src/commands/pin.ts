// `gauntlet-broker pin`: record what the server presents, for the operator to review. The
// listing guards apply here as in serve: a listing that could not be served cannot be pinned.
// `--disable-guard` reaches them too, so the suite can show a listing guard is needed even when
// the bad listing is already there at pin time.

import { loadConfig } from '../operator/config.js';
import { writeTextFile } from '../operator/files.js';
import { selectGuards } from '../guards/registry.js';
import { manifestText } from '../operator/manifest.js';
import { startAndList } from '../load/startup.js';
import { listFeatures } from '../features/listing.js';

export async function pin(configPath: string, outPath: string, disabledGuards: readonly string[]): Promise<void> {
  const guards = selectGuards(disabledGuards);
  const config = loadConfig(configPath, guards.file);
  const { upstream, listed } = await startAndList(config, guards);
  let features;
  try {
    features = await listFeatures(upstream, config);
  } finally {
    await upstream.close();
  }
  writeTextFile(outPath, manifestText(config.server.id, new Date(), listed, features), 'manifest');
}
