#!/usr/bin/env node
// The reference broker, started as a separate process like any candidate broker.
import '../dist/src/cli.js';
