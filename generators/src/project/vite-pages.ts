import { existsSync } from 'node:fs';
import path from 'node:path';
import { servesViteIndex, VITE_APP_ICON } from '../additive/render.js';
import type { Tree } from '../pipeline/tree.js';
import { MAKE_PREFIX } from './generators.js';
import { APP_FILE } from './registrations.js';

/** How `fw make page` links home in an app whose Vite surface serves `/` (the kernel's route of that index). */
const VITE_HOME = "{{url_for 'frontend.index'}}";
/** How it links the icon there. */
const VITE_ICON = `href="${VITE_APP_ICON}"`;
/** The main app's pages: `fluid/templates/`, not an Additive's. */
const MAIN_TEMPLATES = 'fluid/templates/';
/** The Vite workspace of the main app. */
const WORKSPACE = 'fluid/frontend';

/**
 * The main app's pages that `fw make page` wrote while its Vite surface served `/` link that
 * surface: home as `{{url_for 'frontend.index'}}`, the icon at `/frontend/favicon.svg`. Once the
 * render no longer serves a Vite index at `/` (`APP_FRONTEND` switched to htmx), the first fails
 * the page's render (the route is gone) and the second is a 404. Each such page of the record is
 * relinked to what the render has instead, the app's `home` route and `{{static 'favicon.svg'}}`;
 * nothing else of the page changes, so an edit of yours stays. A link with nothing to point to
 * (your `fluid/app.ts` has no `home` route, no `fluid/static/favicon.svg`) is a note naming the
 * file and line. The workspace's installed `node_modules/`, left once its package is gone, is a note too.
 */
export async function relinkVitePages(tree: Tree, frontend: unknown): Promise<string[]> {
  if (servesViteIndex(frontend)) return [];
  const notes: string[] = [];
  const app = (await tree.readText(APP_FILE)) ?? '';
  const home = /\.(?:get|all)\(\s*['"]home['"]/.test(app);
  const icon = await tree.exists('fluid/static/favicon.svg');
  const record = await tree.record();
  const pages = Object.keys(record).filter((file) => record[file]!.generator.startsWith(MAKE_PREFIX) && file.startsWith(MAIN_TEMPLATES) && file.endsWith('.html'));
  for (const file of pages) {
    const text = await tree.readText(file);
    if (text === undefined || (!text.includes(VITE_HOME) && !text.includes(VITE_ICON))) continue;
    let next = text;
    if (home) next = next.replaceAll(VITE_HOME, "{{url_for 'home'}}");
    if (icon) next = next.replaceAll(VITE_ICON, `href="{{static 'favicon.svg'}}"`);
    if (next !== text)
      tree.write(file, next, {
        reason: 'its links to the Vite surface, which no longer serves /, now go to the home route and the static icon',
      });
    const lines = next.split('\n');
    const left = lines.flatMap((line, i) => (line.includes(VITE_HOME) || line.includes(VITE_ICON) ? [`${file}:${i + 1}`] : []));
    if (left.length > 0) {
      notes.push(
        `${left.join(', ')} still ${left.length === 1 ? 'links' : 'link'} the Vite surface, which no longer serves / (${VITE_HOME} fails the render, ${VITE_APP_ICON} is a 404): link your home page and icon there instead`,
      );
    }
  }
  if (existsSync(path.join(tree.root, WORKSPACE, 'node_modules')) && !(await tree.exists(`${WORKSPACE}/package.json`))) {
    notes.push(`${WORKSPACE}/node_modules/ is left (the installed packages of the Vite workspace the app no longer has): delete it`);
  }
  return notes;
}
