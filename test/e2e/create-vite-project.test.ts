/**
 * End to end for a Vite surface, as a user with only the local registry (test/support/registry-setup.ts):
 * `npm create fw-app@latest vite-app -- --surface vite --framework react --typescript`, install,
 * type-check (the Vite workspace is browser code with its own tsconfig, so the app's `tsc` must
 * leave it to `npm run check`), the app's own test, then production: `npm run build` builds the
 * frontend, `npm ci --omit=dev`, and `npm start` serves the built index at `/` without Vite.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { installedPackages, startServer, user, workDir } from '../release/helpers.js';

const as = user();
let work = '';
let root = '';

beforeAll(async () => {
  work = await workDir('vite');
  root = path.join(work, 'vite-app');
  as.run('npm', ['create', 'fw-app@latest', 'vite-app', '--', '--surface', 'vite', '--framework', 'react', '--typescript'], work);
  as.run('npm', ['install'], root);
  // create-fw-app wrote a development app config; this test runs the production settings.
  as.run('npx', ['fw', 'create', 'app', 'vite-app', '--force'], root);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('the app registers no template home page: / belongs to the Vite index', async () => {
  const app = await readFile(path.join(root, 'fluid/app.ts'), 'utf8');
  expect(app).not.toContain("fluid.app.get('home', '/'");
  expect(existsSync(path.join(root, 'fluid/frontend/src/App.tsx'))).toBe(true);
});

test('npx tsc --noEmit is clean (the Vite workspace is left to its own tsconfig)', () => {
  expect(as.run('npx', ['tsc', '--noEmit'], root).stdout).toBe('');
});

test("the app's own npm test passes: the frontend is built once and / serves its index", async () => {
  // A user's second and third test file, run in parallel: each boots the app on the one build of
  // the globalSetup (a build per boot emptied dist/ under another file's app).
  const home = await readFile(path.join(root, 'test/home.test.ts'), 'utf8');
  for (const copy of ['home-2', 'home-3']) await writeFile(path.join(root, `test/${copy}.test.ts`), home);
  const out = stripVTControlCharacters(as.run('npm', ['test', '--', '--maxWorkers=3'], root).stdout);
  expect(out).toMatch(/Tests\s+6 passed \(6\)/);
  expect(out.match(/^info frontend built /gm)).toHaveLength(1);
  expect(existsSync(path.join(root, 'fluid/frontend/dist/index.html'))).toBe(true);
  for (const copy of ['home-2', 'home-3']) await rm(path.join(root, `test/${copy}.test.ts`));
});

test('production: npm run build builds the frontend, and npm start serves it at / with production dependencies only', async () => {
  await rm(path.join(root, 'fluid/frontend/dist'), { recursive: true, force: true });
  as.run('npm', ['run', 'build'], root);
  expect(existsSync(path.join(root, 'dist/fluid/server.js'))).toBe(true);
  expect(existsSync(path.join(root, 'fluid/frontend/dist/index.html'))).toBe(true);
  as.run('npm', ['ci', '--omit=dev'], root);

  const server = await startServer('npm', ['start'], root, as.env);
  try {
    const home = await fetch(`${server.base}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    const script = /<script type="module"[^>]* src="(\/frontend\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const bundle = await fetch(`${server.base}${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  } finally {
    await server.stop();
  }
  // Vite and its plugins built the frontend; none of them is installed to serve it.
  const installed = installedPackages(root);
  for (const dev of ['vite', '@vitejs/plugin-react', 'typescript', '@fw/cli']) expect(installed).not.toContain(dev);
});

test("production: a page view in Chromium logs no 404; the icon is the Vite workspace's, also at /favicon.ico", async () => {
  const server = await startServer('npm', ['start'], root, as.env);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/`);
    // create-vite's index.html links public/favicon.svg, built into dist/ under the surface's base.
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('/frontend/favicon.svg');
    await server.waitForOutput(/GET \/frontend\/favicon\.svg 200/);
    // A page that names no icon makes a browser ask for /favicon.ico: the same icon.
    const icon = await fetch(`${server.base}/favicon.ico`);
    expect(icon.url).toBe(`${server.base}/frontend/favicon.svg`);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(server.output()).not.toMatch(/ 404\b/);
  } finally {
    await browser.close();
    await server.stop();
  }
});
