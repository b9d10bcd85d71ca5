/**
 * Every page fw generates links the app's icon as the home page does (`{{static 'favicon.svg'}}`),
 * so none shows the browser's default icon or leans on the `/favicon.ico` redirect: the pages of
 * `fw make page` (the app's and an Additive's), the Additive's own page (`fw create additive`) and
 * the auth scaffold's layout (`fw create auth`). An htmx project with all of them is migrated
 * (SQLite, the Prisma stand-in), booted on a real server, and each page's icon link is fetched.
 * A Vite project serving its own index has no `fluid/static/favicon.svg` nor the project's
 * `fluid/static/app.css`: its generated pages link its Vite workspace's icon (`/frontend/favicon.svg`,
 * from `public/`) and no stylesheet it lacks (`fw make page` writes its pages' own app.css,
 * test/make/vite-page-style.test.ts); its auth pages link the scaffold's own `fluid/static/auth.css` instead (they
 * were unstyled browser defaults), checked here in production (the Vite build served) and in
 * Chromium; test/dev/vite-icon.test.ts checks the same addresses under `fw dev`.
 */
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../generators/project-helpers.js';
import { launchBrowser, watchProblems } from '../support/browser.js';
import { REPO_ROOT } from '../support/prisma.js';
import { boot, linkHrefs, migrate, scaffoldProject, type RunningApp, type ScaffoldProject } from './app.js';

/** The `href` of the page's `<link rel="icon">`, or undefined when it links none. */
function iconHref(html: string): string | undefined {
  const link = /<link\b[^>]*\brel="icon"[^>]*>/.exec(html)?.[0];
  return link === undefined ? undefined : /\bhref="([^"]+)"/.exec(link)?.[1];
}

/** The generated templates: the `fw make page` pages, the Additive's page and the auth layout. */
const TEMPLATES = ['fluid/templates/about.html', 'additives/blog/templates/blog/archive.html', 'additives/blog/templates/blog/index.html', 'fluid/templates/auth/layout.html'];

describe('an htmx project', () => {
  let project: ScaffoldProject;
  let app: RunningApp;

  beforeAll(async () => {
    project = await scaffoldProject();
    await ok(project.root, 'create', 'additive', 'blog', '--no-install');
    await ok(project.root, 'make', 'page', 'about');
    await ok(project.root, 'make', 'page', 'archive', '--additive', 'blog');
    await migrate(project.root);
    app = await boot(project.root);
  });
  afterAll(async () => {
    await app?.close();
    await project?.remove();
  });

  it.each([
    ['the home page', '/'],
    ['a page of fw make page', '/about'],
    ["an Additive's page (fw create additive)", '/blog/'],
    ["a page of fw make page --additive", '/blog/archive'],
    ["the auth scaffold's layout", '/sign-in'],
  ])('%s (%s) links the app icon, which answers 200 as an SVG image', async (_what, pathname) => {
    const page = await fetch(`${app.url}${pathname}`);
    expect(page.status).toBe(200);
    const href = iconHref(await page.text());
    expect(href, `${pathname} links an icon`).toBe('/static/favicon.svg');
    const icon = await fetch(new URL(href!, `${app.url}${pathname}`), { redirect: 'manual' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('the auth pages link the app stylesheet, as the home page does, and it answers 200', async () => {
    const html = await (await fetch(`${app.url}/sign-in`)).text();
    expect(linkHrefs(html)).toContain('/static/app.css');
    // The scaffold's own stylesheet is only for an app without app.css.
    expect(linkHrefs(html)).not.toContain('/static/auth.css');
    await expect(readFile(path.join(project.root, 'fluid/static/auth.css'))).rejects.toThrow(/ENOENT/);
    for (const href of linkHrefs(html)) expect((await fetch(new URL(href, app.url), { redirect: 'manual' })).status, href).toBe(200);
  });

  it('the generated templates stay as they are on fw generate; the pages are prettier-clean, the auth layout is written as is', async () => {
    const before = await Promise.all(TEMPLATES.map((file) => readFile(path.join(project.root, file), 'utf8')));
    await ok(project.root, 'generate', '--no-install');
    expect(await Promise.all(TEMPLATES.map((file) => readFile(path.join(project.root, file), 'utf8')))).toEqual(before);
    const pages = TEMPLATES.filter((file) => !file.startsWith('fluid/templates/auth/'));
    const format = spawnSync(path.join(REPO_ROOT, 'node_modules/.bin/prettier'), ['--check', ...pages], { cwd: project.root, encoding: 'utf8' });
    expect(format.status, format.stdout + format.stderr).toBe(0);
    // The auth templates are copied byte for byte (their one-line {{#if}} blocks kept), the layout's icon and stylesheet lines filled in.
    const layout = await readFile(path.join(REPO_ROOT, 'blueprints/auth/scaffold/common/fluid/templates/auth/layout.html.hbs'), 'utf8');
    const expected = layout
      .replace('{{{icon}}}', "{{static 'favicon.svg'}}")
      .replace(/\{\{#if stylesheet\}\}\n([^\n]*\n)\{\{else\}\}\n[^\n]*\n\{\{\/if\}\}\n/, '$1')
      .replaceAll('\\{{', '{{');
    expect(before[TEMPLATES.indexOf('fluid/templates/auth/layout.html')]).toBe(expected);
    expect(expected).toContain('      {{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}\n');
  });
});

describe('a Vite project serving its own index', () => {
  let project: ScaffoldProject;
  let app: RunningApp;
  let root = '';

  beforeAll(async () => {
    project = await scaffoldProject(['--framework', 'react']);
    root = project.root;
    await ok(root, 'create', 'additive', 'blog', '--no-install');
    await ok(root, 'make', 'page', 'about');
    await ok(root, 'make', 'page', 'archive', '--additive', 'blog');
    await migrate(root);
    // Production, as `npm start` serves it: the workspace built by Vite (its packages resolve from the checkout's).
    const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: path.join(root, 'fluid/frontend'), encoding: 'utf8', timeout: 120_000 });
    expect(build.status, build.stderr).toBe(0);
    app = await boot(root, { DEBUG: 'false', FW_CHECK_FRONTEND: 'false', FW_BUILD_FRONTEND: 'false' });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await project?.remove();
  });

  it.each([
    ['a page of fw make page', '/about'],
    ["an Additive's page (fw create additive)", '/blog/'],
    ['a page of fw make page --additive', '/blog/archive'],
    ["the auth scaffold's layout", '/sign-in'],
  ])("%s (%s) links the Vite workspace's icon (no fluid/static/favicon.svg), which answers 200 as an SVG image", async (_what, pathname) => {
    await expect(readFile(path.join(root, 'fluid/static/favicon.svg'))).rejects.toThrow(/ENOENT/);
    const page = await fetch(`${app.url}${pathname}`);
    expect(page.status).toBe(200);
    const href = iconHref(await page.text());
    expect(href, `${pathname} links an icon`).toBe('/frontend/favicon.svg');
    const icon = await fetch(new URL(href!, app.url), { redirect: 'manual' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it("the auth pages link no stylesheet it lacks (its app.css is fw make page's, not the project's): every link of /sign-in answers 200", async () => {
    const page = await fetch(`${app.url}/sign-in`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h1>Sign in</h1>');
    expect(linkHrefs(html)).not.toContain('/static/app.css');
    for (const href of linkHrefs(html)) expect((await fetch(new URL(href, app.url), { redirect: 'manual' })).status, href).toBe(200);
  });

  it.each(['/sign-in', '/sign-up', '/forgot-password'])("%s links the scaffold's own stylesheet, /static/auth.css, which answers 200 as CSS", async (pathname) => {
    const html = await (await fetch(`${app.url}${pathname}`)).text();
    expect(linkHrefs(html)).toContain('/static/auth.css');
    const css = await fetch(`${app.url}/static/auth.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('main.auth');
  });

  it('the sign-in page is styled in Chromium, with no CSP violation, console error or failed request', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const problems = watchProblems(page);
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __violations: string[] }).__violations = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
      });
      await page.goto(`${app.url}/sign-in`, { waitUntil: 'networkidle' });
      // Browser defaults: a full-width <main>, a transparent button, Times; the stylesheet changes all three.
      const style = await page.evaluate(() => {
        const main = getComputedStyle(document.querySelector('main.auth')!);
        const button = getComputedStyle(document.querySelector('button[type="submit"]')!);
        return { maxWidth: main.maxWidth, background: main.backgroundColor, button: button.backgroundColor, font: getComputedStyle(document.body).fontFamily };
      });
      expect(style).toEqual({ maxWidth: '448px', background: 'rgb(255, 255, 255)', button: 'rgb(31, 111, 235)', font: 'system-ui, sans-serif' });
      problems.push(...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)));
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
