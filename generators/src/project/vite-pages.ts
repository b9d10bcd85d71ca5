import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { servesViteIndex, VITE_APP_ICON } from '../additive/render.js';
import type { Tree } from '../pipeline/tree.js';
import { MAKE_PREFIX } from './generators.js';
import { APP_FILE } from './registrations.js';

/** How `fw make page` links home in an app whose Vite surface serves `/` (the kernel's route of that index). */
const VITE_HOME = "{{url_for 'frontend.index'}}";
/** How it links the icon there. */
const VITE_ICON = `href="${VITE_APP_ICON}"`;
/** How it links home in an app with a `home` route (the project blueprint's, for an htmx app). */
const APP_HOME = "{{url_for 'home'}}";
/** How it links the icon there. */
const APP_ICON = `href="{{static 'favicon.svg'}}"`;
/** The main app's stylesheet, as its pages link it. */
const APP_STYLESHEET = "{{static 'app.css'}}";
const APP_STYLESHEET_FILE = 'fluid/static/app.css';
/** The main app's pages: `fluid/templates/`, not an Additive's. */
const MAIN_TEMPLATES = 'fluid/templates/';
/** The Vite workspace of the main app. */
const WORKSPACE = 'fluid/frontend';

/** One link of a page: what it was, what the render has instead, whether that is there, whether the old one is broken. */
interface Swap {
  from: string;
  to: string;
  possible: boolean;
  broken: boolean;
}

/**
 * The main app's pages that `fw make page` wrote link what the app had then: with a Vite surface
 * serving `/`, home as `{{url_for 'frontend.index'}}` and the icon at `/frontend/favicon.svg`;
 * otherwise the `home` route and `{{static 'favicon.svg'}}`. Once `APP_FRONTEND` switches, the
 * render no longer has those (a render of a page linking a route that is gone fails, an icon that
 * is gone is a 404), so each such page of the record is relinked to what the render has instead;
 * nothing else of the page changes, so an edit of yours stays. A link with nothing to point to
 * (no `home` route in your `fluid/app.ts`, no icon) is a note naming the file and line.
 *
 * The stylesheet those pages link, `fluid/static/app.css`, is kept when the render would delete
 * it (a Vite app's home page does not use it; the pages do). The Vite workspace's installed
 * `node_modules/`, left once its package is gone, is a note.
 */
export async function relinkMadePages(tree: Tree, frontend: unknown): Promise<string[]> {
  const notes: string[] = [];
  const vite = servesViteIndex(frontend);
  const app = (await tree.readText(APP_FILE)) ?? '';
  const home = /\.(?:get|all)\(\s*['"]home['"]/.test(app);
  const staticIcon = await tree.exists('fluid/static/favicon.svg');
  const swaps: Swap[] = vite
    ? [
        { from: APP_HOME, to: VITE_HOME, possible: true, broken: !home },
        { from: APP_ICON, to: VITE_ICON, possible: await tree.exists(`${WORKSPACE}/public/favicon.svg`), broken: !staticIcon },
      ]
    : [
        { from: VITE_HOME, to: APP_HOME, possible: home, broken: true },
        { from: VITE_ICON, to: APP_ICON, possible: staticIcon, broken: true },
      ];
  const record = await tree.record();
  const pages = Object.keys(record).filter((file) => record[file]!.generator.startsWith(MAKE_PREFIX) && file.startsWith(MAIN_TEMPLATES) && file.endsWith('.html'));
  let stylesheetLinked = false;
  for (const file of pages) {
    const text = await tree.readText(file);
    if (text === undefined) continue;
    if (text.includes(APP_STYLESHEET)) stylesheetLinked = true;
    let next = text;
    for (const swap of swaps) if (swap.broken && swap.possible) next = next.replaceAll(swap.from, swap.to);
    if (next !== text) tree.write(file, next, { reason: `its links follow APP_FRONTEND (${vite ? 'a Vite surface serving /' : 'no Vite index at /'})` });
    const left = swaps.filter((swap) => swap.broken).flatMap((swap) => next.split('\n').flatMap((line, i) => (line.includes(swap.from) ? [`${file}:${i + 1} (${swap.from})`] : [])));
    if (left.length > 0)
      notes.push(`${left.join(', ')}: the app no longer has what ${left.length === 1 ? 'it links' : 'they link'} (APP_FRONTEND changed); link your home page and icon there instead`);
  }
  // The render deletes the stylesheet the made pages link (its project blueprint has none): it stays.
  const stylesheet = path.join(tree.root, APP_STYLESHEET_FILE);
  if (stylesheetLinked && existsSync(stylesheet) && !(await tree.exists(APP_STYLESHEET_FILE))) {
    tree.write(APP_STYLESHEET_FILE, await readFile(stylesheet), { reason: 'kept: the pages fw make page wrote link it' });
  }
  if (existsSync(path.join(tree.root, WORKSPACE, 'node_modules')) && !(await tree.exists(`${WORKSPACE}/package.json`))) {
    notes.push(`${WORKSPACE}/node_modules/ is left (the installed packages of the Vite workspace the app no longer has): delete it`);
  }
  return notes;
}
