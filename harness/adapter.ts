/**
 * The public module for adapter authors outside this repository, imported as
 * `mcp-gauntlet/adapter` (package.json `exports`): the adapter protocol's types and the helpers
 * for brokers that are processes. Everything else in the package is internal and may change.
 */
export * from './candidates/types.js';
export { spawnChannel, throughPrefix, type SpawnOptions } from './candidates/child.js';
export { spawnHttpChannel, type HttpAgentChannel, type HttpChannelOptions } from './agent/http-channel.js';
