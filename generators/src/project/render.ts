import { configDefaults, type ProjectConfig } from '@fw/schemas';
import { CliError } from '../cli/errors.js';
import { identifierFor } from '../codemods/names.js';
import { FileTree } from '../engine/file-tree.js';
import { renderMigrateEnvironment } from '../migrate/render.js';
import { packageVersion } from '../package-info.js';
import { loadBlueprint, renderCompiled } from './blueprints.js';
import { additiveGeneratorId, MIGRATE_GENERATOR_ID, PROJECT_GENERATOR_ID } from './generators.js';
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
 * `migrate` is set, the Prisma environment (`migrate`). `fw.json` itself is not part of it: it is
 * the input, yours to edit (`create project` writes the first one). The registration lines of the
 * Additives in `fluid/app.ts` are not rendered either: the `registerAdditive` codemod is their
 * one source. `create project`, `fw generate`, `fw create additive` all render through here, so a
 * `fw generate` right after any of them writes nothing.
 */
export async function renderProject(options: ProjectRenderOptions): Promise<FileTree> {
  const { config, specs } = options;
  const frontend = frontendOf(config);
  if (frontend.type === 'vite') {
    throw new CliError(
      'fw.json: config.APP_FRONTEND.type is "vite", but Vite surfaces are not generated yet (they arrive with the frontend render); ' +
        'nothing was written. Use "htmx" or "none" for now.',
    );
  }
  const tree = new FileTree();
  const project = await loadBlueprint('project');
  const data = {
    name: config.name,
    frontend,
    htmx: frontend.type === 'htmx',
    alpine: frontend.type === 'htmx' && frontend.alpine === true,
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
  if (options.migrate) renderMigrate(tree, config);
  return tree;
}

/** The `fw.json` text of a new project (written once by `create project`, then yours). */
export async function renderConfigFile(name: string, frontend: Record<string, unknown>): Promise<string> {
  const project = await loadBlueprint('project');
  const tree = new FileTree();
  renderCompiled(project, { name, frontend, htmx: false, alpine: false, kernelSpec: '', cliSpec: '', version: '' }, tree, PROJECT_GENERATOR_ID);
  const entry = tree.get('fw.json');
  if (!entry || entry.kind !== 'write') throw new Error('blueprints/project has no fw.json.hbs');
  return entry.content.toString('utf8');
}
