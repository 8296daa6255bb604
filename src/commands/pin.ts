// `gauntlet-broker pin`: record what the server presents, for the operator to review; with
// several servers, what each presents, each its own manifest in one file. The listing guards
// apply here as in serve: a listing that could not be served cannot be pinned. `--disable-guard`
// reaches them too, so the suite can show a listing guard is needed even when the bad listing is
// already there at pin time. The manifest records the client capabilities each server was pinned
// under (docs/reference-broker.md, "Capabilities declared to the server").

import { loadConfigs } from '../operator/config.js';
import { writeTextFile } from '../operator/files.js';
import { selectGuards } from '../guards/registry.js';
import { manifestsText, type PinnedServer } from '../operator/manifest.js';
import { startAndList } from '../load/startup.js';
import { listFeatures } from '../features/listing.js';
import { declarableCapabilities } from '../operator/client-capabilities.js';

export async function pin(configPath: string, outPath: string, disabledGuards: readonly string[]): Promise<void> {
  const guards = selectGuards(disabledGuards);
  const pinned: PinnedServer[] = [];
  // One at a time: each server is started, listed and stopped before the next is reached.
  for (const config of loadConfigs(configPath, guards.file)) {
    // Pinned under every capability the operator permits, so the review sees all the server offers.
    const capabilities = declarableCapabilities(config);
    const { upstream, listed, instructions } = await startAndList(config, guards, capabilities);
    try {
      pinned.push({ id: config.server.id, tools: listed, instructions, features: await listFeatures(upstream, config), capabilities });
    } finally {
      await upstream.close();
    }
  }
  writeTextFile(outPath, manifestsText(pinned, new Date()), 'manifest');
}
