import type { ProjectConfig } from '@fw/schemas';
import { renderAdditive } from '../additive/render.js';
import { CliError } from '../cli/errors.js';
import { packageVersion } from '../package-info.js';
import type { Tree } from '../pipeline/tree.js';
import { loadBlueprint, prepareBlueprint, renderBlueprint } from '../render/blueprint.js';
import type { ConfigDefaults } from './config.js';
import { FRONTEND_GENERATOR_ID, PROJECT_GENERATOR_ID } from './generators.js';
import { addDependencies, configDependencies } from './dependencies.js';
import { pinOf } from './pins.js';
import type { DependencySpecs } from './specs.js';

/** Input of {@link renderProject}: what the project blueprint, the Additives and the Vite wiring depend on. */
export interface ProjectRenderInput {
  /** The validated `fw.json`. */
  config: ProjectConfig;
  /** The schema defaults of keys `fw.json` leaves out. */
  defaults: ConfigDefaults;
  /** Dependency specs written into `package.json`. */
  specs: DependencySpecs;
  /**
   * Additives of `config.additives` installed as npm packages (`fw ocean install`): registered in
   * `fluid/app.ts` by package name, so nothing is generated for them under `additives/`.
   */
  external?: ReadonlySet<string>;
  /** The `frontend` block of each local Additive's `manifest.json` (by name), for the Vite wiring. */
  manifests?: ReadonlyMap<string, unknown>;
}

/** The frontend block of the main app, with the schema default when `fw.json` has none. */
function frontendOf(config: ProjectConfig, defaults: ConfigDefaults): Record<string, unknown> {
  const block = config.config.APP_FRONTEND ?? defaults.APP_FRONTEND;
  return (block ?? { type: 'none' }) as Record<string, unknown>;
}

/** The data `blueprints/project` renders with. */
function projectData(name: string, frontend: Record<string, unknown>, specs: DependencySpecs, viteBuild: boolean): Record<string, unknown> & { htmx: boolean; viteIndex: boolean; viteBuild: boolean } {
  return {
    name,
    frontend,
    htmx: frontend.type === 'htmx',
    vite: frontend.type === 'vite',
    alpine: frontend.type === 'htmx' && frontend.alpine === true,
    // A Vite surface with register_index serves its built index at `/` (the kernel's
    // `frontend.index` route), so the app registers no template home page of its own.
    viteIndex: frontend.type === 'vite' && frontend.register_index !== false,
    // The app or a local Additive has a Vite surface: a production boot (the app's tests) builds it.
    viteBuild,
    kernelSpec: specs.kernelSpec,
    cliSpec: specs.cliSpec,
    prettierVersion: pinOf('prettier'),
    version: packageVersion(),
  };
}

/**
 * The project blueprint's files that only some projects get, and when: the home page and its
 * stylesheet are the template home page's (a Vite surface with `register_index` serves its own
 * index at `/`); the fragment is what the htmx page swaps in; the tests' frontend build is for
 * an app or local Additive with a Vite surface.
 */
const ONLY_WHEN: Readonly<Record<string, (data: { htmx: boolean; viteIndex: boolean; viteBuild: boolean }) => boolean>> = {
  'fluid/templates/index.html': (d) => !d.viteIndex,
  'fluid/static/app.css': (d) => !d.viteIndex,
  'fluid/templates/hello.html': (d) => d.htmx,
  'test/build-frontend.ts': (d) => d.viteBuild,
};

/**
 * Renders the project blueprint (`blueprint:project`), every local Additive of `config.additives`
 * (`additive:<name>`) and the Vite wiring into `tree`: the part of a project's file set that
 * `create project` and `fw generate` share (the config-driven parts are in `parts.ts`, which the
 * create path never loads). `fw.json` is not rendered: it is the input, yours to edit (`create
 * project` writes the first one). The registration lines of the Additives in `fluid/app.ts` are not
 * rendered either: the `registerAdditive` codemod is their one source.
 */
export async function renderProject(tree: Tree, input: ProjectRenderInput): Promise<void> {
  const { config, specs } = input;
  const frontend = frontendOf(config, input.defaults);
  const surfaces = surfacesOf(config, frontend, input.external, input.manifests ?? new Map());
  const data = projectData(config.name, frontend, specs, surfaces.some(isVite));
  renderBlueprint(await loadBlueprint('project'), data, tree, PROJECT_GENERATOR_ID);
  tree.unrender('fw.json');
  for (const [file, wanted] of Object.entries(ONLY_WHEN)) {
    if (!wanted(data)) tree.unrender(file);
  }
  for (const name of config.additives) {
    if (!input.external?.has(name)) await renderAdditive(tree, name, config.name, input.manifests?.get(name));
  }
  const vite = await renderFrontend(tree, config.name, surfaces);
  addDependencies(tree, configDependencies({ config: config.config, vite }));
}

/** A surface as the Vite wiring reads it: the app's frontend block, or a local Additive's. */
interface Surface {
  additive?: string;
  frontend: unknown;
}

/** The app's surface and every local Additive's (an installed Additive's is built by its package). */
function surfacesOf(config: ProjectConfig, frontend: Record<string, unknown>, external: ReadonlySet<string> | undefined, manifests: ReadonlyMap<string, unknown>): Surface[] {
  return [
    { frontend },
    ...config.additives.filter((n) => !external?.has(n)).map((n) => ({ additive: n, frontend: manifests.get(n) ?? { type: 'none' } })),
  ];
}

const isVite = (s: Surface): boolean => (s.frontend as { type?: unknown }).type === 'vite';

/**
 * The Vite wiring (`setupFrontend` of the frontend render) when the app or a local Additive has a
 * `vite` surface: each Vite workspace (generator `frontend`, copied verbatim from create-vite's
 * templates), the orchestrating root `vite.config.js` (`frontend`), and the `workspaces` of
 * `package.json` and the ignores of `.gitignore` applied to the project blueprint's render of
 * those two files. Without a Vite surface nothing changes. Returns whether there is one.
 */
async function renderFrontend(tree: Tree, name: string, surfaces: readonly Surface[]): Promise<boolean> {
  if (!surfaces.some(isVite)) return false;
  const { setupFrontend } = await import('../frontend/setup.js');
  await prepareBlueprint('frontend', ['root/vite.config.js.hbs', 'workspace/vite.config.js.hbs']);
  let files: Map<string, string | Uint8Array>;
  try {
    files = setupFrontend({
      name,
      surfaces,
      packageJson: tree.rendered('package.json')?.toString('utf8') ?? '{}',
      gitignore: tree.rendered('.gitignore')?.toString('utf8'),
    });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  for (const [file, content] of files) {
    const own = file === 'package.json' || file === '.gitignore';
    // fw's own files are formatted (and rendered prettier-stable); create-vite's are copied as they are.
    const fwAuthored = own || file === 'vite.config.js';
    tree.render(file, content, { generator: own ? PROJECT_GENERATOR_ID : FRONTEND_GENERATOR_ID, format: fwAuthored });
  }
  return true;
}

/** The `fw.json` text of a new project (written once by `create project`, then yours). */
export async function renderConfigFile(name: string, frontend: Record<string, unknown>): Promise<string> {
  const project = await loadBlueprint('project');
  const file = project.files.find((f) => f.segments.join('/') === 'fw.json');
  if (!file || Buffer.isBuffer(file.content)) throw new Error('blueprints/project has no fw.json.hbs');
  // Laid out as JSON.stringify does (objects expanded), which prettier keeps as it is.
  return `${JSON.stringify(JSON.parse(file.content({ name, frontend })), null, 2)}\n`;
}
