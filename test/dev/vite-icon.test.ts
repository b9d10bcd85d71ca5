/**
 * `fw dev` of an app whose Vite surface serves `/` (React, with the auth scaffold, an Additive and
 * pages of `fw make page`): its icon answers at the address the build serves it at,
 * `/frontend/favicon.svg` (the workspace's `public/favicon.svg`). The `/favicon.ico` redirect of
 * the generated `fluid/app.ts` and the generated template pages name that address; under
 * `fw dev` it was a 404 (only the production build was mounted at `/frontend/`).
 * The auth pages are styled by the scaffold's own `fluid/static/auth.css` (such an app has no
 * project `app.css`; its `fw make page` pages link their own). test/auth-scaffold/page-icons.test.ts checks the same pages in production.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../generators/project-helpers.js';
import { launchBrowser } from '../support/browser.js';
import { linkHrefs, migrate, scaffoldProject, type ScaffoldProject } from '../auth-scaffold/app.js';
import { DevRun, requireBuild } from './helpers.js';

let project: ScaffoldProject;
let dev: DevRun;

beforeAll(async () => {
  requireBuild();
  // Under the checkout's .tmp/: vite, react and the Prisma client's packages resolve from its node_modules.
  project = await scaffoldProject(['--framework', 'react']);
  const root = project.root;
  await ok(root, 'create', 'additive', 'blog', '--no-install');
  await ok(root, 'make', 'page', 'about');
  await ok(root, 'make', 'page', 'archive', '--additive', 'blog');
  await migrate(root);
  // What the public/ mount must never serve: a dotfile, and a link leading out of public/.
  const pub = path.join(root, 'fluid/frontend/public');
  await mkdir(pub, { recursive: true });
  await writeFile(path.join(pub, '.hidden.txt'), 'hidden\n');
  await symlink(path.join(root, 'fw.json'), path.join(pub, 'config.json'));
  dev = await DevRun.start(root, ['dev'], { CACHE_TYPE: 'memory' });
  await dev.waitForBoot();
}, 180_000);

afterAll(async () => {
  await dev?.stop();
  await project?.remove();
});

describe('fw dev of a Vite app serving /', () => {
  it('answers /favicon.ico with the Vite workspace icon: the redirect lands on an SVG at /frontend/favicon.svg', async () => {
    const icon = await fetch(`${dev.base}/favicon.ico`);
    expect(icon.url).toBe(`${dev.base}/frontend/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toContain('<svg');
  });

  it.each(['/about', '/blog/', '/blog/archive', '/sign-in'])('%s links the icon at /frontend/favicon.svg, and every link answers 200', async (pathname) => {
    const page = await fetch(`${dev.base}${pathname}`);
    expect(page.status).toBe(200);
    const hrefs = linkHrefs(await page.text());
    expect(hrefs).toContain('/frontend/favicon.svg');
    for (const href of hrefs) expect((await fetch(new URL(href, dev.base), { redirect: 'manual' })).status, href).toBe(200);
  });

  it('a browser opening /sign-in has no failed request, and the page is styled by the scaffold\'s /static/auth.css', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`));
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.url()} ${response.status()}`);
      });
      await page.goto(`${dev.base}/sign-in`, { waitUntil: 'networkidle' });
      expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('/frontend/favicon.svg');
      expect(await page.getAttribute('link[rel="stylesheet"]', 'href')).toBe('/static/auth.css');
      // A browser default <main> has no max-width; the scaffold's stylesheet gives it one.
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('main.auth')!).maxWidth)).toBe('448px');
      expect(failed).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('serves no dotfile of public/ and no link leading out of it', async () => {
    expect((await fetch(`${dev.base}/frontend/.hidden.txt`)).status).toBe(404);
    expect((await fetch(`${dev.base}/frontend/config.json`)).status).toBe(404);
    expect((await fetch(`${dev.base}/frontend/missing.svg`)).status).toBe(404);
  });
});
