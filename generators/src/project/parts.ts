import type { ProjectConfig } from '@fw/schemas';
import {
  adapterPackages,
  AUTH_SCAFFOLD_DEPENDENCIES,
  AUTH_SCAFFOLD_DEV_DEPENDENCIES,
  authModels,
  installInApp,
  renderAuthGuards,
  renderAuthScaffold,
} from '../auth/index.js';
import { appIconHref, hasAppStylesheet } from '../additive/render.js';
import { CliError } from '../cli/errors.js';
import { packageVersion } from '../package-info.js';
import type { Cache } from '../pipeline/cache.js';
import { sha256 } from '../pipeline/hash.js';
import type { Tree } from '../pipeline/tree.js';
import { configuredBinds, type ConfigDefaults } from './config.js';
import { AUTH_GENERATOR_ID, I18N_GENERATOR_ID, MIGRATE_GENERATOR_ID, PROJECT_GENERATOR_ID } from './generators.js';
import { prepareBlueprint } from '../render/blueprint.js';
import { addDependencies, databaseDependencies, I18N_DEPENDENCIES } from './dependencies.js';
import { APP_FILE } from './registrations.js';

/** Input of {@link renderParts}: what the config-driven parts of a project depend on. */
export interface PartsInput {
  /** The validated `fw.json`. */
  config: ProjectConfig;
  /** The schema defaults of keys `fw.json` leaves out. */
  defaults: ConfigDefaults;
  /** Render the Prisma environment of `fw migrate init` (the project ran it: see docs/regeneration.md). */
  migrate?: boolean;
  /**
   * The project's translation catalogs (`fluid/locales/*.po`, `messages.pot`: path → text), read by
   * the i18n render when `fw.json` sets `I18N_SUPPORTED_LOCALES`. Default: none.
   */
  catalogs?: ReadonlyMap<string, string>;
  /** Where the i18n render is cached (typesafe-i18n's generator takes seconds). */
  cache?: Cache;
  /** Render the auth scaffold of `fw create auth` (the project has it: see docs/auth-scaffold.md); implies `migrate`. */
  authScaffold?: boolean;
}

/**
 * The parts of a project that `fw.json` turns on, rendered into `tree` after `renderProject`:
 * the Prisma environment of `fw migrate init` (`migrate`), the guard chains (`auth`) and the typed
 * translation modules (`i18n`). `create project` never renders them (a new project has none).
 */
export async function renderParts(tree: Tree, input: PartsInput): Promise<void> {
  const { config, defaults } = input;
  const scaffold = input.authScaffold === true;
  if (input.migrate || scaffold) {
    addDependencies(tree, databaseDependencies(await renderMigrate(tree, config, defaults, scaffold)));
    addLines(tree, '.gitignore', ["# Prisma's generated clients (`prisma generate`, `fw migrate dev`): rebuilt from prisma/, never committed.", '/generated/']);
  }
  await renderAuth(tree, config, scaffold);
  if (scaffold) await renderScaffold(tree, config, defaults);
  if (await renderI18n(tree, config, defaults, input.catalogs ?? new Map(), input.cache)) addDependencies(tree, I18N_DEPENDENCIES);
}

/**
 * Adds lines to an ignore file the project blueprint renders (`.gitignore`, `.prettierignore`),
 * once (a comment line goes in with the line after it), so a part's files stay out of git or out
 * of `npm run format` while the part is on.
 */
function addLines(tree: Tree, file: '.gitignore' | '.prettierignore', lines: readonly string[]): void {
  const rendered = tree.rendered(file)?.toString('utf8');
  if (rendered === undefined) return;
  const have = new Set(rendered.split(/\r?\n/));
  const last = lines.at(-1);
  if (last === undefined || have.has(last)) return;
  tree.render(file, `${rendered.replace(/\n*$/, '\n')}${lines.join('\n')}\n`, { generator: PROJECT_GENERATOR_ID });
}

/**
 * Adds the Prisma environment of `fw migrate init` for the binds in `fw.json` (schema defaults
 * when absent) to `tree`, recorded with the generator id `migrate`. Returns the binds' providers
 * (their driver adapters are the app's dependencies).
 */
async function renderMigrate(tree: Tree, config: ProjectConfig, defaults: ConfigDefaults, scaffold: boolean): Promise<Set<'sqlite' | 'postgresql'>> {
  const { renderMigrateEnvironment } = await import('../migrate/render.js');
  const { migrationHistoryProvider } = await import('../migrate/history.js');
  const { parseBindUrl } = await import('@fw/schemas');
  await prepareBlueprint('migrate', ['bind/schema.prisma.hbs', 'bind/prisma.config.ts.hbs', 'bind/migrations/migration_lock.toml.hbs', 'single/prisma.config.ts.hbs', 'README.md.hbs']);
  const { binds, securityBind } = await configuredBinds({ config, defaults }, tree.root);
  const securityModels = scaffold ? await authModels(securityBind) : undefined;
  const histories = Object.fromEntries(Object.keys(binds).map((bind) => [bind, migrationHistoryProvider(tree.root, bind)]));
  const files = renderMigrateEnvironment({ binds, securityBind, projectName: config.name, histories, ...(securityModels ? { securityModels } : {}) });
  for (const [file, content] of files) tree.render(file, content, { generator: MIGRATE_GENERATOR_ID });
  const providers = new Set<'sqlite' | 'postgresql'>();
  for (const [name, url] of Object.entries(binds)) {
    const parsed = parseBindUrl(name, url);
    if ('provider' in parsed) providers.add(parsed.provider);
  }
  return providers;
}

/**
 * `fluid/guards.ts` (generator `auth`, from `renderAuthGuards`) when `fw.json` sets
 * `AUTH_ROLES` or `AUTH_PERMISSIONS` (even to `[]`): a project that never mentions them gets no
 * guards module.
 */
async function renderAuth(tree: Tree, config: ProjectConfig, scaffold: boolean): Promise<void> {
  const { AUTH_ROLES: roles, AUTH_PERMISSIONS: permissions } = config.config;
  if (roles === undefined && permissions === undefined && !scaffold) return;
  await prepareBlueprint('auth', ['fluid/guards.ts.hbs']);
  let files: Map<string, string>;
  try {
    files = renderAuthGuards({ roles: roles ?? [], permissions: permissions ?? [] });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  for (const [file, content] of files) tree.render(file, content, { generator: AUTH_GENERATOR_ID });
}

/**
 * The auth scaffold (generator `auth-scaffold`, from `renderAuthScaffold`): its files, its
 * dependencies, the driver adapter of the users' bind, its templates in `.prettierignore`, and
 * `installAuthScaffold(fluid)` in `fluid/app.ts` (written on top of the merge, once; a user who
 * removes it keeps it removed only by also removing the import, which is how the codemod
 * recognises an installed app).
 */
async function renderScaffold(tree: Tree, config: ProjectConfig, defaults: ConfigDefaults): Promise<void> {
  const { binds, securityBind: bind } = await configuredBinds({ config, defaults }, tree.root);
  const twoFactor = config.config.AUTH_TWO_FACTOR !== false; // the schema default is true
  const frontend = (config.config.APP_FRONTEND ?? defaults.APP_FRONTEND) as { type?: unknown } | undefined;
  await renderAuthScaffold(tree, { projectName: config.name, bind, twoFactor, api: frontend?.type === 'vite', icon: appIconHref(frontend), stylesheet: hasAppStylesheet(frontend) });
  // Its pages and mail are Handlebars that prettier's HTML parser cannot read (a helper's quoted
  // argument inside an attribute), written as is: `npm run format` leaves them alone.
  addLines(tree, '.prettierignore', ["# The auth scaffold's pages and mail (`fw create auth`): Handlebars, which prettier's HTML parser cannot read.", 'fluid/templates/auth/']);
  const { bindProvider } = await import('../migrate/urls.js');
  addDependencies(tree, {
    dependencies: [...AUTH_SCAFFOLD_DEPENDENCIES, ...adapterPackages(bindProvider(bind, binds[bind] ?? ''))],
    devDependencies: [...AUTH_SCAFFOLD_DEV_DEPENDENCIES],
  });
  const app = await tree.readText(APP_FILE);
  const installed = app === undefined ? undefined : installInApp(app);
  if (installed !== undefined && installed !== app) tree.write(APP_FILE, installed, { reason: 'installs the auth scaffold' });
}

/**
 * The typed translation modules `fluid/i18n/**` (generator `i18n`, from
 * `renderTranslationModules`) when `fw.json` sets `I18N_SUPPORTED_LOCALES`. A starter catalog
 * `fluid/locales/<locale>.po` for a new locale is a seed: written once when missing, never
 * recorded (the catalog is yours to translate). typesafe-i18n's generator runs in a child process
 * and takes seconds, so its output is cached by a hash of everything it reads (the fw version, the
 * locales, the catalogs): a run with the same inputs never starts it.
 */
async function renderI18n(tree: Tree, config: ProjectConfig, defaults: ConfigDefaults, catalogs: ReadonlyMap<string, string>, cache: Cache | undefined): Promise<boolean> {
  const supported = config.config.I18N_SUPPORTED_LOCALES;
  if (supported === undefined) return false;
  const locales = {
    I18N_DEFAULT_LOCALE: (config.config.I18N_DEFAULT_LOCALE ?? defaults.I18N_DEFAULT_LOCALE) as string,
    I18N_SUPPORTED_LOCALES: supported as readonly string[],
  };
  const keyOf = (texts: ReadonlyMap<string, string>): string =>
    sha256(packageVersion(), config.name, JSON.stringify(locales), JSON.stringify([...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  let files = cache?.render<Record<string, string>>('i18n', keyOf(catalogs));
  if (!files) {
    const { renderTranslationModules } = await import('../i18n/index.js');
    await prepareBlueprint('i18n', ['fluid/locales/locale.po.hbs', 'fluid/i18n/fluid-locale.ts.hbs']);
    try {
      files = Object.fromEntries(await renderTranslationModules({ config: locales, files: catalogs, projectName: config.name }));
    } catch (error) {
      throw new CliError(`i18n: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Kept under the catalogs the next run reads: these plus the starter catalogs this run seeds
    // (a starter catalog translates nothing, so the typed modules are the same with or without it).
    const next = new Map(catalogs);
    for (const [file, text] of Object.entries(files)) if (file.startsWith('fluid/locales/') && !next.has(file)) next.set(file, text);
    cache?.setRender('i18n', keyOf(next), files);
  }
  for (const [file, content] of Object.entries(files)) {
    if (file.startsWith('fluid/locales/')) {
      tree.write(file, content, { seed: true, record: false, reason: 'missing: written once, yours from now on, not in the record' });
    } else {
      tree.render(file, content, { generator: I18N_GENERATOR_ID });
    }
  }
  return true;
}
