import { configDefaults, type ProjectConfig } from '@fw/schemas';
import { CliError } from '../cli/errors.js';
import { identifierFor } from '../codemods/names.js';
import { FileTree } from '../engine/file-tree.js';
import { renderMigrateEnvironment } from '../migrate/render.js';
import { ownPackageJson, packageVersion } from '../package-info.js';
import { loadBlueprint, renderCompiled } from './blueprints.js';
import { renderAuthGuards } from '../auth/index.js';
import { setupFrontend } from '../frontend/setup.js';
import { additiveGeneratorId, AUTH_GENERATOR_ID, FRONTEND_GENERATOR_ID, I18N_GENERATOR_ID, MIGRATE_GENERATOR_ID, PROJECT_GENERATOR_ID } from './generators.js';
import type { DependencySpecs } from './specs.js';

/** Input of {@link renderProject}: everything the generated file set depends on. */
export interface ProjectRenderOptions {
  /** The validated `fw.json`. */
  config: ProjectConfig;
  /** Dependency specs written into `package.json`. */
  specs: DependencySpecs;
  /**
   * Additives of `config.additives` installed as npm packages (`fw ocean install`): registered in
   * `fluid/app.ts` by package name, so nothing is generated for them under `additives/`.
   */
  external?: ReadonlySet<string>;
  /** Render the Prisma environment of `fw migrate init` (the project ran it: see docs/regeneration.md). */
  migrate?: boolean;
  /** The `frontend` block of each local Additive's `manifest.json` (by name), for the Vite wiring. */
  manifests?: ReadonlyMap<string, unknown>;
  /**
   * The project's translation catalogs (`fluid/locales/*.po`, `messages.pot`: path → text), read by
   * the i18n render when `fw.json` sets `I18N_SUPPORTED_LOCALES`. Default: none.
   */
  catalogs?: ReadonlyMap<string, string>;
}

/** The frontend block of the main app, with the schema default when `fw.json` has none. */
function frontendOf(config: ProjectConfig): Record<string, unknown> {
  const block = config.config.APP_FRONTEND ?? configDefaults().APP_FRONTEND;
  return (block ?? { type: 'none' }) as Record<string, unknown>;
}

/**
 * Renders the files of one Additive (`blueprints/additive` → `additives/<name>/`) into `tree`,
 * recorded with the generator id `additive:<name>`. Returns the paths written.
 */
export async function renderAdditive(tree: FileTree, name: string, projectName: string): Promise<string[]> {
  const blueprint = await loadBlueprint('additive');
  return renderCompiled(blueprint, { name, id: identifierFor(name), project: projectName }, tree, additiveGeneratorId(name), `additives/${name}`);
}

/**
 * Adds the Prisma environment of `fw migrate init` for the binds in `fw.json` (schema defaults
 * when absent) to `tree`, recorded with the generator id `migrate`.
 */
export function renderMigrate(tree: FileTree, config: ProjectConfig): void {
  const defaults = configDefaults();
  const binds = (config.config.DATABASE_BINDS ?? defaults.DATABASE_BINDS) as Record<string, string>;
  const securityBind = (config.config.SECURITY_MODELS_DB_BIND ?? defaults.SECURITY_MODELS_DB_BIND) as string;
  const files = renderMigrateEnvironment({ binds, securityBind, projectName: config.name });
  for (const [file, content] of files) tree.write(file, content, { generator: MIGRATE_GENERATOR_ID });
}

/**
 * The whole generated file set of a project from its validated `fw.json`: the project blueprint
 * (`blueprint:project`), every local Additive of `config.additives` (`additive:<name>`) and, when
 * `migrate` is set, the Prisma environment (`migrate`), plus the guard chains (`auth`) and the typed
 * translation modules (`i18n`) when `fw.json` configures them. `fw.json` itself is not part of it: it is
 * the input, yours to edit (`create project` writes the first one). The registration lines of the
 * Additives in `fluid/app.ts` are not rendered either: the `registerAdditive` codemod is their
 * one source. `create project`, `fw generate`, `fw create additive` all render through here, so a
 * `fw generate` right after any of them writes nothing.
 */
export async function renderProject(options: ProjectRenderOptions): Promise<FileTree> {
  const { config, specs } = options;
  const frontend = frontendOf(config);
  const tree = new FileTree();
  const project = await loadBlueprint('project');
  const data = {
    name: config.name,
    frontend,
    htmx: frontend.type === 'htmx',
    alpine: frontend.type === 'htmx' && frontend.alpine === true,
    // A Vite surface with register_index serves its built index at `/` (the kernel's
    // `frontend.index` route), so the app registers no template home page of its own.
    viteIndex: frontend.type === 'vite' && frontend.register_index !== false,
    kernelSpec: specs.kernelSpec,
    cliSpec: specs.cliSpec,
    version: packageVersion(),
  };
  renderCompiled(project, data, tree, PROJECT_GENERATOR_ID);
  tree.forget('fw.json');
  for (const name of config.additives) {
    if (options.external?.has(name)) continue;
    await renderAdditive(tree, name, config.name);
  }
  renderFrontend(tree, config, frontend, options.external, options.manifests ?? new Map());
  if (options.migrate) {
    renderMigrate(tree, config);
    // The generated clients import @prisma/client; `fw migrate` runs the project's own prisma CLI.
    addDependencies(tree, { dependencies: ['@prisma/client'], devDependencies: ['prisma'] });
  }
  renderAuth(tree, config);
  if (await renderI18n(tree, config, options.catalogs ?? new Map())) {
    // The typed translation modules import typesafe-i18n at run time.
    addDependencies(tree, { dependencies: ['typesafe-i18n'] });
  }
  return tree;
}

/**
 * Adds packages to the rendered `package.json`, each at the exact version fw itself is built and
 * tested with (read from create-fw-app's own package.json), so a generated app never drifts from
 * what fw generates code for. A package fw does not pin is a programming error.
 */
export function addDependencies(tree: FileTree, add: { dependencies?: string[]; devDependencies?: string[] }): void {
  const entry = tree.get('package.json');
  if (entry?.kind !== 'write') return;
  const pkg = JSON.parse(entry.content.toString('utf8')) as Record<string, unknown>;
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const names = add[field];
    if (!names?.length) continue;
    const current = (pkg[field] ?? {}) as Record<string, string>;
    for (const name of names) current[name] = fwPin(name);
    pkg[field] = Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)));
  }
  tree.write('package.json', `${JSON.stringify(pkg, null, 2)}\n`, { generator: PROJECT_GENERATOR_ID });
}

/** The exact version of `name` in create-fw-app's own package.json. */
function fwPin(name: string): string {
  const own = ownPackageJson();
  const version = own.dependencies?.[name] ?? own.devDependencies?.[name];
  if (version === undefined) throw new Error(`create-fw-app pins no version of ${name}; add it to its package.json`);
  return version;
}

/**
 * The Vite wiring (`setupFrontend` of the frontend render) when the app or a local Additive has a
 * `vite` surface: each Vite workspace (generator `frontend`), the orchestrating root
 * `vite.config.js` (`frontend`), and the `workspaces` of `package.json` and the ignores of
 * `.gitignore` applied to the project blueprint's render of those two files. Without a Vite
 * surface nothing changes.
 */
export function renderFrontend(
  tree: FileTree,
  config: ProjectConfig,
  frontend: Record<string, unknown>,
  external: ReadonlySet<string> | undefined,
  manifests: ReadonlyMap<string, unknown>,
): void {
  const surfaces = [
    { frontend },
    ...config.additives.filter((n) => !external?.has(n)).map((n) => ({ additive: n, frontend: manifests.get(n) ?? { type: 'none' } })),
  ];
  if (!surfaces.some((s) => (s.frontend as { type?: unknown }).type === 'vite')) return;
  const text = (file: string): string | undefined => {
    const entry = tree.get(file);
    return entry?.kind === 'write' ? entry.content.toString('utf8') : undefined;
  };
  let files: Map<string, string | Uint8Array>;
  try {
    files = setupFrontend({ name: config.name, surfaces, packageJson: text('package.json') ?? '{}', gitignore: text('.gitignore') });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  for (const [file, content] of files) {
    const own = file === 'package.json' || file === '.gitignore';
    tree.write(file, content, { generator: own ? PROJECT_GENERATOR_ID : FRONTEND_GENERATOR_ID, format: typeof content === 'string' });
  }
}

/**
 * `fluid/guards.ts` (generator `auth`, from `renderAuthGuards`) when `fw.json` sets
 * `AUTH_ROLES` or `AUTH_PERMISSIONS` (even to `[]`): a project that never mentions them gets no
 * guards module.
 */
export function renderAuth(tree: FileTree, config: ProjectConfig): void {
  const { AUTH_ROLES: roles, AUTH_PERMISSIONS: permissions } = config.config;
  if (roles === undefined && permissions === undefined) return;
  let files: Map<string, string>;
  try {
    files = renderAuthGuards({ roles: roles ?? [], permissions: permissions ?? [] });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  for (const [file, content] of files) tree.write(file, content, { generator: AUTH_GENERATOR_ID });
}

/**
 * The typed translation modules `fluid/i18n/**` (generator `i18n`, from
 * `renderTranslationModules`) when `fw.json` sets `I18N_SUPPORTED_LOCALES`. A starter catalog
 * `fluid/locales/<locale>.po` for a new locale is a seed: written once when missing, never
 * recorded (the catalog is yours to translate, and the render only produces it while it is absent).
 */
export async function renderI18n(tree: FileTree, config: ProjectConfig, catalogs: ReadonlyMap<string, string>): Promise<boolean> {
  const supported = config.config.I18N_SUPPORTED_LOCALES;
  if (supported === undefined) return false;
  const defaults = configDefaults();
  const { renderTranslationModules } = await import('../i18n/index.js');
  let files: Map<string, string>;
  try {
    files = await renderTranslationModules({
      config: {
        I18N_DEFAULT_LOCALE: (config.config.I18N_DEFAULT_LOCALE ?? defaults.I18N_DEFAULT_LOCALE) as string,
        I18N_SUPPORTED_LOCALES: supported as readonly string[],
      },
      files: catalogs,
      projectName: config.name,
    });
  } catch (error) {
    throw new CliError(`i18n: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const [file, content] of files) {
    const seed = file.startsWith('fluid/locales/');
    tree.write(file, content, { generator: I18N_GENERATOR_ID, ...(seed ? { record: false, format: false } : {}) });
  }
  return true;
}

/** The `fw.json` text of a new project (written once by `create project`, then yours). */
export async function renderConfigFile(name: string, frontend: Record<string, unknown>): Promise<string> {
  const project = await loadBlueprint('project');
  const tree = new FileTree();
  renderCompiled(project, { name, frontend, htmx: false, alpine: false, viteIndex: false, kernelSpec: '', cliSpec: '', version: '' }, tree, PROJECT_GENERATOR_ID);
  const entry = tree.get('fw.json');
  if (!entry || entry.kind !== 'write') throw new Error('blueprints/project has no fw.json.hbs');
  return entry.content.toString('utf8');
}
