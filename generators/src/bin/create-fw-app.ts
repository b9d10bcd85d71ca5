#!/usr/bin/env node
/** `npx create-fw-app <dir>`: the same command as `fw create project <dir>`. */
import { runMain } from '../cli/main.js';
import { run } from '../commands/create-project.js';

await runMain((argv, io) => run(argv, io, 'create-fw-app'), process.argv.slice(2));
