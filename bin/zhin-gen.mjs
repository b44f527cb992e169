#!/usr/bin/env node
// The CLI's bundle (scripts/cli-bundle.mjs): a run reads a few files, not every module of the compiler.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
