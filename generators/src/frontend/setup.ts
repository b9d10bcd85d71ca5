/**
 * `setupFrontend(project)` (the reference's `setup_frontend`): the project-level frontend wiring.
 *
 * - the root `package.json` gets `workspaces` listing every Vite workspace (the app's and each
 *   Additive's), so one `npm install` installs them all and `npm run build --workspaces` builds
 *   them all;
 * - the root `vite.config.js` is the orchestrating config of the shared dev server, with each
 *   framework's plugin (JSX plugins scoped to their own workspaces);
 * - `.gitignore` lines for the compiled `tailwind.css` files and the build outputs.
 *
 * htmx and Alpine need nothing here: the kernel serves them from its `htmx.org` and `alpinejs`
 * dependencies. Nothing is downloaded; Node is the one running (see `loadNode`).
 */
import { validateConfig, type FrontendConfig } from '@fw/schemas';
import { FrontendGenerationError, renderBlueprint, renderViteSurface, workspaceDir, type FileContent, type Framework } from './render.js';

/** A surface of the project, as `setupFrontend` reads it. */
export interface SurfaceEntry {
  /** The Additive's name; undefined for the main app. */
  additive?: string | undefined;
  /** Its frontend block (`APP_FRONTEND` or the manifest's `frontend`), validated here. */
  frontend: unknown;
}

/** The project as `setupFrontend` reads it. */
export interface FrontendProject {
  /** `fw.json` `name`. */
  name: string;
  /** The app and every Additive. */
  surfaces: readonly SurfaceEntry[];
  /** The current root `package.json` text (its other keys are kept). */
  packageJson: string;
  /** The current `.gitignore` text, if any. */
  gitignore?: string | undefined;
}

/** Plugin import and call per framework, for the orchestrating config. */
const PLUGINS: Partial<Record<Framework, { binding: string; module: string; call: (include: string) => string }>> = {
  react: { binding: 'react', module: '@vitejs/plugin-react', call: (inc) => `react({ include: ${inc} })` },
  preact: { binding: 'preact', module: '@preact/preset-vite', call: (inc) => `preact({ include: ${inc} })` },
  solid: { binding: 'solid', module: 'vite-plugin-solid', call: (inc) => `solid({ include: ${inc} })` },
  // Root-relative asset URLs in templates (`<use href="/icons.svg#x">`) stay URLs: the dev server
  // is rooted at the project, whose public/ is not the workspace's, so resolving them as imports
  // fails there; the page fetches them through fw's asset catch-all instead.
  vue: { binding: 'vue', module: '@vitejs/plugin-vue', call: () => 'vue({ template: { transformAssetUrls: { includeAbsolute: false } } })' },
  svelte: { binding: '{ svelte }', module: '@sveltejs/vite-plugin-svelte', call: () => 'svelte()' },
};

/** The validated blocks of the surfaces, with a key path naming a bad one. */
function validated(surfaces: readonly SurfaceEntry[]): { additive?: string | undefined; frontend: FrontendConfig }[] {
  return surfaces.map((s) => {
    const where = s.additive ? `additives/${s.additive}/manifest.json: frontend` : 'fw.json: config.APP_FRONTEND';
    const [ok, value] = validateConfig(s.frontend, where);
    if (!ok) throw new FrontendGenerationError(value);
    return { additive: s.additive, frontend: value };
  });
}

/**
 * Renders every project-level frontend file and every Vite workspace. Keys are paths relative
 * to the project root.
 */
export function setupFrontend(project: FrontendProject): Map<string, FileContent> {
  const surfaces = validated(project.surfaces);
  const out = new Map<string, FileContent>();
  const workspaces: string[] = [];
  const byFramework = new Map<Framework, string[]>();
  for (const s of surfaces) {
    if (s.frontend.type !== 'vite') continue;
    const framework = s.frontend.framework as Framework;
    for (const [k, v] of renderViteSurface({ project: project.name, additive: s.additive, framework, typescript: s.frontend.typescript })) out.set(k, v);
    const dir = workspaceDir(s.additive);
    workspaces.push(dir);
    byFramework.set(framework, [...(byFramework.get(framework) ?? []), dir]);
  }
  out.set('package.json', withWorkspaces(project.packageJson, workspaces));
  if (workspaces.length > 0) {
    const imports: { binding: string; module: string }[] = [];
    const plugins: string[] = [];
    for (const [framework, dirs] of [...byFramework].sort(([a], [b]) => a.localeCompare(b))) {
      const plugin = PLUGINS[framework];
      if (!plugin) continue;
      imports.push({ binding: plugin.binding, module: plugin.module });
      let call = plugin.call(`[${dirs.map((d) => `/\\/${d.replace(/\//g, '\\/')}\\/.*\\.[jt]sx?$/`).join(', ')}]`);
      // With a React surface beside it in the ONE dev server, the Preact preset must not act
      // server-wide: no react → preact/compat alias, and its JSX through its own (scoped) babel
      // pass rather than the global JSX import source, which would compile React files for Preact.
      if (framework === 'preact' && byFramework.has('react')) call = call.replace(/ \}\)$/, ', reactAliasesEnabled: false, babel: {} })');
      plugins.push(call);
    }
    out.set('vite.config.js', renderBlueprint('root/vite.config.js.hbs', { imports, plugins }));
  }
  out.set('.gitignore', withIgnores(project.gitignore ?? '', surfaces.map((s) => (s.additive ? `additives/${s.additive}` : 'fluid')), workspaces));
  return out;
}

/** The root `package.json` with `workspaces` set (other keys kept, order kept). */
export function withWorkspaces(text: string, workspaces: readonly string[]): string {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new FrontendGenerationError(`package.json: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (workspaces.length > 0) pkg.workspaces = [...workspaces];
  else delete pkg.workspaces;
  return JSON.stringify(pkg, null, 2) + '\n';
}

/** `.gitignore` with the compiled stylesheets and build outputs listed once each. */
export function withIgnores(text: string, surfaceDirs: readonly string[], workspaces: readonly string[]): string {
  const lines = text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
  const want = [...surfaceDirs.map((d) => `${d}/static/tailwind.css`), ...workspaces.map((w) => `${w}/dist`), ...workspaces.map((w) => `${w}/src/tailwind.css`)];
  for (const line of want) if (!lines.includes(line)) lines.push(line);
  return lines.join('\n').replace(/^\n+/, '') + '\n';
}
