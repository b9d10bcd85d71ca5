// @ts-check
/**
 * Writes `<packageRoot>/pins.json` from the checkout's runtime-kernel/package.json and
 * generators/package.json, with the CLI's own `pinsFrom` (generators/dist/project/pins.js, built
 * before this runs), so the shipped file and a checkout's answer can never differ.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** @param {string} packageRoot */
export async function writePins(packageRoot) {
  const { pinsFrom, PINS_FILE } = await import('../dist/project/pins.js');
  const read = async (/** @type {string} */ rel) => JSON.parse(await readFile(path.join(repo, rel), 'utf8'));
  const pins = pinsFrom(await read('runtime-kernel/package.json'), await read('generators/package.json'));
  await writeFile(path.join(packageRoot, PINS_FILE), `${JSON.stringify(pins, null, 2)}\n`);
}
