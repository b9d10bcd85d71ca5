import { additiveGeneratorId } from '../project/generators.js';
import { loadBlueprint, renderBlueprint } from '../render/blueprint.js';
import type { Tree } from '../pipeline/tree.js';
import { additiveVariable } from './names.js';

/** The folder of the Additive `name`, relative to the project root. */
export function additiveDir(name: string): string {
  return `additives/${name}`;
}

/** Whether a frontend block is a Vite surface that serves its own index at the surface root. */
export function servesViteIndex(frontend: unknown): boolean {
  const block = frontend as { type?: unknown; register_index?: unknown } | undefined;
  return block?.type === 'vite' && block.register_index !== false;
}

/** Where an app whose Vite surface serves `/` has its icon: the workspace's `public/favicon.svg` (create-vite's). */
export const VITE_APP_ICON = '/frontend/favicon.svg';

/**
 * The main app's icon as its template pages link it: the project blueprint's
 * `fluid/static/favicon.svg` through `{{static}}`, or, for an app whose Vite surface serves its own
 * index at `/` (no `fluid/static/favicon.svg`), {@link VITE_APP_ICON}, which the kernel serves in
 * development as the build does in production. `appFrontend` is the app's `APP_FRONTEND` block, the
 * schema default when `fw.json` has none.
 */
export function appIconHref(appFrontend: unknown): string {
  return servesViteIndex(appFrontend) ? VITE_APP_ICON : "{{static 'favicon.svg'}}";
}

/**
 * Whether the main app has the stylesheet of the project blueprint, `fluid/static/app.css`, which
 * its template pages link: every app but one whose Vite surface serves its own index at `/` (it is
 * styled from its workspace).
 */
export function hasAppStylesheet(appFrontend: unknown): boolean {
  return !servesViteIndex(appFrontend);
}

/**
 * Renders the files of one Additive (`blueprints/additive` → `additives/<name>/`) into `tree`,
 * recorded with the generator id `additive:<name>`. `frontend` is the `frontend` block of its
 * manifest: a Vite surface that serves its index at `/<name>/` gets no template page (`app.ts`,
 * its template and stylesheet), which would answer that path first. `appIcon`: the `href` of the
 * main app's icon ({@link appIconHref}), which the page links.
 * Returns the paths rendered.
 */
export async function renderAdditive(tree: Tree, name: string, projectName: string, appIcon: string, frontend?: unknown): Promise<string[]> {
  const blueprint = await loadBlueprint('additive');
  const viteIndex = servesViteIndex(frontend);
  const dir = additiveDir(name);
  const written = renderBlueprint(blueprint, { name, id: additiveVariable(name), project: projectName, viteIndex, appIcon }, tree, additiveGeneratorId(name), dir);
  const page = [`${dir}/app.ts`, `${dir}/templates/${name}/index.html`, `${dir}/static/${name}.css`];
  if (!viteIndex) return written;
  for (const file of page) tree.unrender(file);
  return written.filter((file) => !page.includes(file));
}
