/**
 * A React app whose Vite surface serves `/`, a page made with `fw make page about` (which wrote
 * `fluid/static/app.css` and linked home as `{{url_for 'frontend.index'}}` and the icon at
 * `/frontend/favicon.svg`), then `APP_FRONTEND` switched to htmx in fw.json and `fw generate`:
 * the page's render failed (500: no `frontend.index` route any more) and its icon was a 404. Now
 * `fw generate` relinks the page to the htmx app's `home` route and `{{static 'favicon.svg'}}`,
 * keeps your edit of app.css, removes the workspace, and says that its installed
 * `node_modules/` is left. The project's own `npm run dev`, `/about` in Chromium.
 *
 * The other way (an htmx app's page, then a Vite surface serving `/`): the render deleted
 * `fluid/static/app.css` and the icon the page links, and dropped its `home` route; the page is
 * relinked to the Vite index and icon, and app.css, which the page still links, stays.
 * Under the checkout's `.tmp/`, so the app's packages resolve from its node_modules.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchProblems } from '../support/browser.js';
import { cleanupDevProjects, devProject, DevRun, linkCheckoutFw, requireBuild } from '../dev/helpers.js';
import { ok } from './helpers.js';

let root = '';
let browser: BrowserContext;
let generated = '';

/** The environment of the project's scripts: this one without the outer vitest's own variables. */
function projectEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'FW_ENV'));
}

const MINE = '\n/* Mine. */\nh1 {\n  color: rgb(1, 2, 3);\n}\n';

beforeAll(async () => {
  requireBuild();
  const parent = devProject({});
  await ok(parent, 'create', 'project', 'app', '--yes', '--framework', 'react');
  root = path.join(parent, 'app');
  linkCheckoutFw(root); // the project's own `fw`: this checkout's build
  await ok(root, 'make', 'page', 'about');
  const about = await readFile(path.join(root, 'fluid/templates/about.html'), 'utf8');
  expect(about).toContain(`<nav><a href="{{url_for 'frontend.index'}}">Home</a></nav>`);
  expect(about).toContain('href="/frontend/favicon.svg"');
  // Your edit of the stylesheet, and what an install of the workspace leaves in it.
  await writeFile(path.join(root, 'fluid/static/app.css'), (await readFile(path.join(root, 'fluid/static/app.css'), 'utf8')) + MINE);
  await mkdir(path.join(root, 'fluid/frontend/node_modules/typescript'), {
    recursive: true,
  });
  // The switch: the main app's frontend becomes htmx.
  const config = JSON.parse(await readFile(path.join(root, 'fw.json'), 'utf8')) as { config: Record<string, unknown> };
  config.config.APP_FRONTEND = { type: 'htmx' };
  await writeFile(path.join(root, 'fw.json'), JSON.stringify(config, null, 2) + '\n');
  generated = await ok(root, 'generate', '--no-install');
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  cleanupDevProjects();
});

describe('fw generate after switching a Vite app serving / to htmx', () => {
  it('relinks the page fw make wrote, keeps your app.css edit, and leaves no workspace file (naming its node_modules)', async () => {
    const about = await readFile(path.join(root, 'fluid/templates/about.html'), 'utf8');
    expect(about).toContain(`<nav><a href="{{url_for 'home'}}">Home</a></nav>`);
    expect(about).toContain(`<link rel="icon" type="image/svg+xml" href="{{static 'favicon.svg'}}" />`);
    expect(about).toContain(`<link rel="stylesheet" href="{{static 'app.css'}}" />`);
    expect(about).not.toMatch(/frontend\.index|\/frontend\//);
    expect(generated).toMatch(/update +fluid\/templates\/about\.html +\(its links follow APP_FRONTEND \(no Vite index at \/\)\)/);

    const css = await readFile(path.join(root, 'fluid/static/app.css'), 'utf8');
    expect(css).toContain('font-family: system-ui, sans-serif;');
    expect(css).toContain(MINE.trim());

    expect(await readdir(path.join(root, 'fluid/frontend'))).toEqual(['node_modules']);
    expect(existsSync(path.join(root, 'vite.config.js'))).toBe(false);
    expect(generated).toContain('note: fluid/frontend/node_modules/ is left (the installed packages of the Vite workspace the app no longer has): delete it');

    // A second run has nothing more to relink.
    const again = await ok(root, 'generate', '--no-install', '--dry-run');
    expect(again).not.toContain('about.html');
  });

  it('npm run dev: /about is styled in Chromium, its icon and link home answer, no failed request or console error', async () => {
    const about = await aboutUnderDev(root);
    expect(about.seen, about.output).toEqual({
      status: 200,
      font: 'system-ui, sans-serif',
      maxWidth: '640px',
      color: 'rgb(1, 2, 3)',
      icon: '/static/favicon.svg',
      home: '/',
      iconStatus: 200,
      homeStatus: 200,
    });
    expect(about.problems, about.output).toEqual([]);
  }, 120_000);
});

describe('fw generate after switching an htmx app to a Vite surface serving /', () => {
  it('relinks the page to the Vite index and icon and keeps the app.css it links: styled in Chromium under npm run dev', async () => {
    const parent = devProject({});
    await ok(parent, 'create', 'project', 'back', '--yes');
    const back = path.join(parent, 'back');
    linkCheckoutFw(back);
    await ok(back, 'make', 'page', 'about');
    const config = JSON.parse(await readFile(path.join(back, 'fw.json'), 'utf8')) as { config?: Record<string, unknown> };
    config.config = { ...config.config, APP_FRONTEND: { type: 'vite', framework: 'react' } };
    await writeFile(path.join(back, 'fw.json'), JSON.stringify(config, null, 2) + '\n');
    const out = await ok(back, 'generate', '--no-install');
    expect(out).toMatch(/update +fluid\/templates\/about\.html +\(its links follow APP_FRONTEND \(a Vite surface serving \/\)\)/);
    expect(out).not.toContain('fluid/static/app.css');
    const about = await readFile(path.join(back, 'fluid/templates/about.html'), 'utf8');
    expect(about).toContain(`<nav><a href="{{url_for 'frontend.index'}}">Home</a></nav>`);
    expect(about).toContain('<link rel="icon" type="image/svg+xml" href="/frontend/favicon.svg" />');
    expect(about).toContain(`<link rel="stylesheet" href="{{static 'app.css'}}" />`);
    expect(existsSync(path.join(back, 'fluid/static/app.css'))).toBe(true);

    const shown = await aboutUnderDev(back);
    expect(shown.seen, shown.output).toEqual({
      status: 200,
      font: 'system-ui, sans-serif',
      maxWidth: '640px',
      color: expect.any(String),
      icon: '/frontend/favicon.svg',
      home: '/',
      iconStatus: 200,
      homeStatus: 200,
    });
    expect(shown.problems, shown.output).toEqual([]);
  }, 180_000);
});

/**
 * `/about` of the project at `project` under its own `npm run dev`, in Chromium: the status, the
 * computed font, width and h1 colour, where its icon and home link point and what they answer,
 * and every failure the page saw.
 */
async function aboutUnderDev(project: string): Promise<{ seen: Record<string, string | number>; problems: string[]; output: string }> {
  const dev = await DevRun.npm(project, 'dev', projectEnv());
  const page = await browser.newPage();
  const problems = watchProblems(page);
  try {
    await dev.waitForBoot();
    const res = await page.goto(`${dev.base}/about`, { waitUntil: 'networkidle' });
    const seen = await page.evaluate(() => {
      const body = getComputedStyle(document.body);
      const h1 = document.querySelector('h1');
      return {
        font: body.fontFamily,
        maxWidth: body.maxWidth,
        color: h1 ? getComputedStyle(h1).color : 'no h1',
        icon: document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? 'no icon',
        home: document.querySelector('nav a')?.getAttribute('href') ?? 'no link home',
      };
    });
    const iconStatus = (await fetch(new URL(seen.icon, dev.base))).status;
    const homeStatus = (await fetch(new URL(seen.home, dev.base))).status;
    return { seen: { status: res?.status() ?? 0, ...seen, iconStatus, homeStatus }, problems, output: dev.output };
  } finally {
    await page.close();
    await dev.stop();
  }
}
