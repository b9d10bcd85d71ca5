/**
 * Lean by default: which optional packages an app's `package.json` lists, from what its
 * `fw.json` turns on. Each entry says what needs the packages and where it runs, which decides
 * the field: `dependencies` hold what production runs (`npm ci --omit=dev` keeps them),
 * `devDependencies` what only development and `fw` commands run. The versions are the pins of
 * `pins.ts`. A subsystem turned off renders without its packages, and the three-way merge of
 * `package.json` removes them (unless you edited those lines).
 */
import type { ProjectConfig } from '@fw/schemas';
import type { Tree } from '../pipeline/tree.js';
import { PROJECT_GENERATOR_ID } from './generators.js';
import { pinOf } from './pins.js';

/** Packages to add to `package.json`, by field. */
export interface DependencySet {
  dependencies: string[];
  devDependencies: string[];
}

/** What the project uses, as the renders know it. */
export interface DependencyInput {
  /** `fw.json` `config` (no defaults filled in: a key is "used" when it is written there). */
  config: ProjectConfig['config'];
  /** Whether the app or a local Additive has a Vite surface. */
  vite: boolean;
}

/**
 * The packages of the config-driven subsystems:
 * - a Vite surface → `vite`, `http-proxy`, `koa-proxies` (dev: the kernel's dev-server proxy runs
 *   in debug only; production serves what `fw build` built);
 * - `FW_TAILWIND` → `tailwindcss`, `@tailwindcss/node`, `@tailwindcss/oxide` (the kernel compiles
 *   the stylesheets at every boot, production included);
 * - any `MAIL_*` key → `nodemailer` (sending, and the development outbox);
 * - `CACHE_TYPE` `redis` (the cache, sessions and rate-limit counters) or `EVENTS_REDIS_URL` → `ioredis`.
 */
export function configDependencies(input: DependencyInput): DependencySet {
  const { config } = input;
  const set: DependencySet = { dependencies: [], devDependencies: [] };
  if (input.vite) set.devDependencies.push('vite', 'http-proxy', 'koa-proxies');
  if (config.FW_TAILWIND === true) set.dependencies.push('tailwindcss', '@tailwindcss/node', '@tailwindcss/oxide');
  if (Object.keys(config).some((key) => key.startsWith('MAIL_'))) set.dependencies.push('nodemailer');
  if (config.CACHE_TYPE === 'redis' || config.EVENTS_REDIS_URL !== undefined) set.dependencies.push('ioredis');
  return set;
}

/**
 * The packages of the Prisma environment (`fw migrate init`): `@prisma/client` and each bind's
 * driver adapter (`@prisma/adapter-libsql` + `@libsql/client` for SQLite, `@prisma/adapter-pg` +
 * `pg` for PostgreSQL), which the app queries through in production, and the `prisma` CLI, which
 * `fw migrate` runs (dev).
 */
export function databaseDependencies(providers: ReadonlySet<'sqlite' | 'postgresql'>): DependencySet {
  const dependencies = ['@prisma/client'];
  if (providers.has('sqlite')) dependencies.push('@prisma/adapter-libsql', '@libsql/client');
  if (providers.has('postgresql')) dependencies.push('@prisma/adapter-pg', 'pg');
  return { dependencies, devDependencies: ['prisma'] };
}

/** The typed translation modules import `typesafe-i18n` at run time. */
export const I18N_DEPENDENCIES: DependencySet = { dependencies: ['typesafe-i18n'], devDependencies: [] };

/**
 * Install scripts of packages fw adds, which npm 11 asks about on every install until
 * `allowScripts` decides them. Denied: nothing of fw's needs them. `prisma`'s preinstall checks
 * the Node version; `@prisma/engines`' postinstall downloads engines the CLI fetches on first
 * use anyway, and the client needs none (it queries through a driver adapter).
 */
const DENIED_INSTALL_SCRIPTS: Readonly<Record<string, readonly string[]>> = { prisma: ['prisma', '@prisma/engines'] };

/**
 * Adds packages to the rendered `package.json` at their pinned versions (`pins.ts`), each list
 * sorted, so a generated app never drifts from what fw generates code for, and decides their
 * install scripts in `allowScripts` (`DENIED_INSTALL_SCRIPTS`).
 */
export function addDependencies(tree: Tree, add: Partial<DependencySet>): void {
  const rendered = tree.rendered('package.json');
  if (!rendered || (!add.dependencies?.length && !add.devDependencies?.length)) return;
  const pkg = JSON.parse(rendered.toString('utf8')) as Record<string, unknown>;
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const names = add[field];
    if (!names?.length) continue;
    const current = (pkg[field] ?? {}) as Record<string, string>;
    for (const name of names) current[name] = pinOf(name);
    pkg[field] = Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)));
    const denied = names.flatMap((name) => DENIED_INSTALL_SCRIPTS[name] ?? []);
    if (denied.length > 0) pkg['allowScripts'] = { ...(pkg['allowScripts'] as Record<string, boolean> | undefined), ...Object.fromEntries(denied.map((name) => [name, false])) };
  }
  tree.render('package.json', `${JSON.stringify(pkg, null, 2)}\n`, { generator: PROJECT_GENERATOR_ID });
}
