// Lets @modelcontextprotocol/conformance run on Node 20: its bundle imports `globSync` from `fs`,
// which Node adds only in 22. Loaded with `node --import <this file>` before the suite's entry.
// A `--require` preload could set `fs.globSync`, but not add a named export to a builtin ES
// module, so this registers a resolve hook (node20-glob-hooks.mjs) that hands the suite's modules
// a facade of `fs` which has one (node20-fs-facade.mjs). On a Node that has `globSync` it does
// nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register('./node20-glob-hooks.mjs', import.meta.url);
