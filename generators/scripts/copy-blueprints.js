// @ts-check
/**
 * Copies the repository's blueprints/ into this package (generators/blueprints/, gitignored), so
 * the published @fw/cli ships them. In a checkout the CLI keeps reading the repository's own
 * blueprints/ (package-info.ts), so editing a blueprint needs no rebuild. Also writes pins.json:
 * the exact versions of the optional packages an app gets (project/pins.ts), which a published
 * @fw/cli cannot read from a kernel next to it.
 */
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { writePins } from './write-pins.js';

const from = fileURLToPath(new URL('../../blueprints', import.meta.url));
const to = fileURLToPath(new URL('../blueprints', import.meta.url));
await rm(to, { recursive: true, force: true });
await cp(from, to, { recursive: true });
await writePins(fileURLToPath(new URL('..', import.meta.url)));
