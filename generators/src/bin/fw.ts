#!/usr/bin/env node
/**
 * `fw <command>`: the project CLI a generated app reaches with `npx fw`.
 *
 * `fw`, `fw --help` and `fw -h` print the usage text that the build rendered from the command
 * table (`fw-help.txt` beside this file, written by `scripts/write-help.js` from
 * `commands/index.ts`'s `help`) and load no other module: Node starting is the whole cost
 * (issue 19: at most 1.2× `node -e 0`). `process.getBuiltinModule` rather than `import ... from
 * 'node:fs'`, because an ES import of a built-in evaluates every lazy export of its namespace
 * (fs/promises, streams, watchers: about 15 ms here). Without the file (running `src/` through
 * tsx) the commands print the same text themselves.
 */
const argv = process.argv.slice(2);
const help = argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' ? renderedHelp() : undefined;
if (help !== undefined) {
  process.stdout.write(help);
  process.exitCode = argv.length === 0 ? 1 : 0;
} else {
  const [{ runMain }, { run }] = await Promise.all([import('../cli/main.js'), import('../commands/index.js')]);
  await runMain(run, argv);
}

/** The usage text the build wrote beside this module, if it is there. */
function renderedHelp(): string | undefined {
  try {
    return process.getBuiltinModule('node:fs').readFileSync(new URL('fw-help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}
