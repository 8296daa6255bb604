// Guards on the operator's files taken together, run by `serve` before the server is started:
// a rule or a manifest that does not fit the configuration is a review that never happened,
// and serving under it would enforce something other than what the operator meant.

import type { ConfigGuard } from './types.js';

export const manifestRequired: ConfigGuard = {
  name: 'manifest-required',
  // Forgetting --manifest must not quietly become serving with nothing reviewed.
  check: ({ manifest, unpinned }) =>
    manifest === undefined && !unpinned ? 'no manifest was given: pin the server and review its manifest first (or serve --unpinned)' : null,
};

export const manifestServer: ConfigGuard = {
  name: 'manifest-server',
  // A review of one server says nothing about another that happens to list the same tools.
  check: ({ config, manifest }) =>
    manifest !== undefined && manifest.server !== config.server.id
      ? `the manifest pins server ${JSON.stringify(manifest.server)} but the configuration names ${JSON.stringify(config.server.id)}`
      : null,
};

export const rulesPinned: ConfigGuard = {
  name: 'rules-pinned',
  // A rule for a tool the review never saw is most often a misspelling: the tool the operator
  // meant is then left without the rule they wrote for it.
  check({ config, manifest }) {
    if (manifest === undefined) return null;
    const stray = [...config.rules.keys()].filter((tool) => !manifest.tools.has(tool));
    return stray.length === 0 ? null : `the rules name ${stray.map((tool) => JSON.stringify(tool)).join(', ')}, which the manifest does not pin`;
  },
};
