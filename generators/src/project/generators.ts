/** Generator id recorded for the project blueprint's files. */
export const PROJECT_GENERATOR_ID = 'blueprint:project';

/** Generator id recorded for the Prisma environment of `fw migrate init`. */
export const MIGRATE_GENERATOR_ID = 'migrate';

/** Prefix of an Additive's generator id. */
export const ADDITIVE_PREFIX = 'additive:';

/** Generator id recorded for the files of the Additive `name`: `additive:<name>`. */
export function additiveGeneratorId(name: string): string {
  return `${ADDITIVE_PREFIX}${name}`;
}

/** The Additive name of an `additive:<name>` generator id, else `undefined`. */
export function additiveOfGenerator(generator: string): string | undefined {
  return generator.startsWith(ADDITIVE_PREFIX) ? generator.slice(ADDITIVE_PREFIX.length) : undefined;
}

/** Generator id recorded for `fluid/guards.ts` (from `AUTH_ROLES` / `AUTH_PERMISSIONS`). */
export const AUTH_GENERATOR_ID = 'auth';

/** Generator id recorded for the typed translation modules `fluid/i18n/**`. */
export const I18N_GENERATOR_ID = 'i18n';

/** Generator id recorded for the Vite workspaces and the root `vite.config.js`. */
export const FRONTEND_GENERATOR_ID = 'frontend';

/** Prefix of the generator id of a file `fw make` wrote: `make:<generator>` (`make:page`, `make:controller`). */
export const MAKE_PREFIX = 'make:';

/** Generator id recorded for the files `fw make <generator>` writes. */
export function makeGeneratorId(generator: string): string {
  return `${MAKE_PREFIX}${generator}`;
}

/**
 * Whether `fw make` wrote the file. Only a later `fw make` run renders such a file again (it
 * needs that generator's answers), so no other command answers for its record entry: `fw
 * generate` leaves it, and your edits to it, alone.
 */
export function isMakeGenerator(generator: string): boolean {
  return generator.startsWith(MAKE_PREFIX);
}
