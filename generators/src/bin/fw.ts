#!/usr/bin/env node
/** `fw <command>`: the project CLI a generated app reaches with `npx fw`. */
import { runMain } from '../cli/main.js';
import { run } from '../commands/index.js';

await runMain(run, process.argv.slice(2));
