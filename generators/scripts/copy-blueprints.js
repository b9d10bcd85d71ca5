// @ts-check
/**
 * Copies the repository's blueprints/ into this package (generators/blueprints/, gitignored), so
 * the published @fw/cli ships them. In a checkout the CLI keeps reading the repository's own
 * blueprints/ (package-info.ts), so editing a blueprint needs no rebuild. Copies docs/ the same
 * way (generators/docs/, what `fw docs` prints from a published @fw/cli). Also writes pins.json:
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
// The documentation too (generators/docs/, gitignored): the CLI's messages send users to
// `fw docs <topic>`, which prints these pages (src/commands/docs.ts).
const docsFrom = fileURLToPath(new URL('../../docs', import.meta.url));
const docsTo = fileURLToPath(new URL('../docs', import.meta.url));
await rm(docsTo, { recursive: true, force: true });
// The pages only: the screenshots of docs/images/ (most of the weight) stay in the repository.
await cp(docsFrom, docsTo, { recursive: true, filter: (src) => !src.includes(`${docsFrom}/images`) });
await writePins(fileURLToPath(new URL('..', import.meta.url)));
