import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ProjectConfig } from '@fw/schemas';
import { appIconHref, renderAdditive } from '../additive/render.js';
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
 * The project blueprint's files that only some projects get, and when: the home page, its
 * stylesheet and its icon are the template home page's (a Vite surface with `register_index` serves its own
 * index at `/`); the fragment is what the htmx page swaps in; the tests' frontend build is for
 * an app or local Additive with a Vite surface.
 */
const ONLY_WHEN: Readonly<Record<string, (data: { htmx: boolean; viteIndex: boolean; viteBuild: boolean }) => boolean>> = {
  'fluid/templates/index.html': (d) => !d.viteIndex,
  'fluid/static/app.css': (d) => !d.viteIndex,
  'fluid/static/favicon.svg': (d) => !d.viteIndex,
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
    if (!input.external?.has(name)) await renderAdditive(tree, name, config.name, appIconHref(frontend), input.manifests?.get(name));
  }
  const vite = await renderFrontend(tree, config.name, surfaces);
  await removedWorkspaceOutputs(tree, surfaces.filter(isVite).map((s) => viteDir(s.additive)));
  addDependencies(tree, configDependencies({ config: config.config, vite }));
}

/** A Vite workspace's folder (`workspaceDir` of the frontend render, which loads only with a Vite surface). */
const viteDir = (additive: string | undefined): string => (additive ? `additives/${additive}/frontend` : 'fluid/frontend');

/** The build outputs under a Vite workspace that `.gitignore` lists (`withIgnores` of the frontend setup). */
const OUTPUTS = ['dist', 'src/tailwind.css'] as const;

/** A workspace's `vite.config` as fw renders it (create-vite's, with fw's `build.outDir`). */
const VITE_CONFIG = /^((?:fluid|additives\/[^/]+)\/frontend)\/vite\.config\.[cm]?[jt]s$/;

/** Every file under the project-relative folder `rel`, project-relative; symbolic links are listed, never followed. */
function filesUnder(root: string, rel: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(root, child));
    else out.push(child);
  }
  return out;
}

/**
 * The build output of the Vite workspaces this render no longer has (the surface is no longer
 * `vite`, or its Additive is gone), so `git status` never shows it:
 *
 * - removed, when this run removes the workspace's `vite.config` because fw wrote it and it was
 *   never edited: that config builds into `<workspace>/dist` and empties it on every build
 *   (`build: { outDir: 'dist', emptyOutDir: true }`), so `dist/` holds only build output, which
 *   `.gitignore` kept out of git. The workspace's folders the run leaves empty are removed too, as
 *   every run's are (`emptiedFolders`): a folder of yours, and `node_modules`, stay.
 * - otherwise (you edited the config, so the workspace is yours now), kept and still ignored: the
 *   `.gitignore` lines for `<workspace>/dist` and `<workspace>/src/tailwind.css` (compiled from
 *   your stylesheet, never removed) stay while they are on disk.
 */
async function removedWorkspaceOutputs(tree: Tree, current: readonly string[]): Promise<void> {
  const root = tree.root;
  const removed = new Set<string>();
  for (const [file, entry] of Object.entries(await tree.record())) {
    const dir = VITE_CONFIG.exec(file)?.[1];
    if (dir === undefined || entry.generator !== FRONTEND_GENERATOR_ID || current.includes(dir) || tree.rendered(file) !== undefined) continue;
    if (!(await tree.item(file))?.remove || !existsSync(path.join(root, dir))) continue;
    removed.add(dir);
    const dist = `${dir}/dist`;
    // A real folder only: a symbolic link named dist points at something fw never built.
    if (lstatSync(path.join(root, dist), { throwIfNoEntry: false })?.isDirectory()) {
      for (const built of filesUnder(root, dist)) tree.delete(built, { reason: `build output of ${dir}, whose vite.config this run removes` });
    }
  }
  const workspaces = ['fluid/frontend', ...additiveFolders(root).map((name) => `additives/${name}/frontend`)];
  const keep = workspaces
    .filter((dir) => !current.includes(dir))
    .flatMap((dir) => OUTPUTS.filter((output) => !(output === 'dist' && removed.has(dir))).map((output) => `${dir}/${output}`))
    .filter((output) => existsSync(path.join(root, output)));
  const gitignore = tree.rendered('.gitignore')?.toString('utf8');
  if (keep.length === 0 || gitignore === undefined) return;
  const have = new Set(gitignore.split(/\r?\n/));
  const missing = keep.filter((line) => !have.has(line));
  if (missing.length === 0) return;
  const comment = '# Build output of a Vite workspace fw no longer generates: ignored while it is on disk.';
  tree.render('.gitignore', `${gitignore.replace(/\n*$/, '\n')}${[comment, ...missing].join('\n')}\n`, { generator: PROJECT_GENERATOR_ID });
}

/** The folders under `additives/` on disk. */
function additiveFolders(root: string): string[] {
  try {
    return readdirSync(path.join(root, 'additives'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
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
