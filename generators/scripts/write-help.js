// @ts-check
/**
 * Writes dist/bin/fw-help.txt: `fw --help`'s text, rendered from the compiled command table
 * (dist/commands/index.js `help`), so that `fw`, `fw --help` and `fw -h` print it without loading
 * the CLI's modules (see src/bin/fw.ts). Run after `tsc -b`; test/generators/help.test.ts checks
 * that the built `fw --help` prints exactly the table's text.
 */
import { writeFile } from 'node:fs/promises';

const { help } = await import(new URL('../dist/commands/index.js', import.meta.url).href);
await writeFile(new URL('../dist/bin/fw-help.txt', import.meta.url), `${help}\n`);
