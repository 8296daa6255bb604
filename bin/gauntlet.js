#!/usr/bin/env node
// The harness CLI, compiled by `npm ci` (prepare) into dist/.
import '../dist/harness/cli.js';
