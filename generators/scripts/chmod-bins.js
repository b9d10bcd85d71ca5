// @ts-check
/**
 * Makes every `bin` of package.json executable (adds the x bits where r is set). `tsc` writes
 * dist/bin/fw.js as a plain file, so without this the checkout's node_modules/.bin/fw (a link to
 * it) cannot be run; npm sets the bits on install from the registry, not in a workspace build.
 * Run after `tsc -b`; test/generators/help.test.ts runs the built binary directly.
 */
import { chmod, readFile, stat } from 'node:fs/promises';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {});
for (const bin of bins) {
  const file = new URL(bin, root);
  const { mode } = await stat(file);
  await chmod(file, mode | ((mode & 0o444) >> 2));
}
