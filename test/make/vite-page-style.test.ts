/**
 * `fw make page` in an app whose Vite surface serves `/` (React; the TypeScript workspace needs @types/react, which the checkout does not have): such an app has no
 * `fluid/static/app.css` (the project blueprint's is its template home page's), so its made pages
 * linked no stylesheet and rendered as browser defaults. `fw make page` now writes the stylesheet
 * an htmx app's pages link, `fluid/static/app.css` (once, never over yours, not again once you
 * deleted it), and links it through `{{static 'app.css'}}`, with a link home to the Vite index.
 * The project's own scripts run it: `npm run dev` (fw dev), then `npm run build` and `npm start`,
 * each page opened in Chromium, whose computed styles are the stylesheet's, not the defaults.
 * Under the checkout's `.tmp/`, so the app's packages resolve from its node_modules.
 */
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchProblems } from '../support/browser.js';
import { cleanupDevProjects, devProject, DevRun, linkCheckoutFw, REPO, requireBuild } from '../dev/helpers.js';
import { ok } from './helpers.js';

let root = '';
let browser: BrowserContext;

/** The environment of the project's scripts: this one without the outer vitest's own variables. */
function projectEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'FW_ENV'));
}

/** Runs the project's `npm run <script>`; its exit code and output. */
function npmRun(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { cwd: root, env: projectEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The rules of a stylesheet without its comments, for comparing two. */
const rules = (css: string): string => css.replace(/\/\*[\s\S]*?\*\//g, '').trim();

beforeAll(async () => {
  requireBuild();
  const parent = devProject({});
  await ok(parent, 'create', 'project', 'app', '--yes', '--framework', 'react');
  root = path.join(parent, 'app');
  linkCheckoutFw(root); // the project's own `fw`: this checkout's build
  await ok(root, 'make', 'page', 'about');
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  cleanupDevProjects();
});

describe('fw make page in a Vite app serving /', () => {
  it("writes fluid/static/app.css, the rules an htmx app's pages get, and the page links it and the Vite index", async () => {
    const css = await readFile(path.join(root, 'fluid/static/app.css'), 'utf8');
    expect(rules(css)).toBe(rules(await readFile(path.join(REPO, 'blueprints/project/fluid/static/app.css'), 'utf8')));
    const page = await readFile(path.join(root, 'fluid/templates/about.html'), 'utf8');
    expect(page).toContain(`<link rel="stylesheet" href="{{static 'app.css'}}" />`);
    expect(page).toContain(`<nav><a href="{{url_for 'frontend.index'}}">Home</a></nav>`);
  });

  it('leaves your edit of app.css alone on the next page, and a deleted app.css deleted (and unlinked) unless --force', async () => {
    const file = path.join(root, 'fluid/static/app.css');
    const mine = '/* Mine. */\nbody {\n  color: rgb(1, 2, 3);\n}\n';
    await writeFile(file, mine);
    await ok(root, 'make', 'page', 'contact');
    expect(await readFile(file, 'utf8')).toBe(mine);
    expect(await readFile(path.join(root, 'fluid/templates/contact.html'), 'utf8')).toContain(`{{static 'app.css'}}`);

    await rm(file);
    await ok(root, 'make', 'page', 'team');
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(root, 'fluid/templates/team.html'), 'utf8')).not.toContain('stylesheet');

    await ok(root, 'make', 'page', 'jobs', '--force');
    expect(rules(await readFile(file, 'utf8'))).toContain('font-family: system-ui, sans-serif;');
    expect(await readFile(path.join(root, 'fluid/templates/jobs.html'), 'utf8')).toContain(`{{static 'app.css'}}`);
    // fw generate leaves what fw make wrote alone (the project blueprint has no app.css for this app).
    await ok(root, 'generate', '--no-install');
    expect(rules(await readFile(file, 'utf8'))).toContain('font-family: system-ui, sans-serif;');
  });

  /** Opens `/about` of `base` in Chromium: its computed styles and every failure seen. */
  async function about(base: string): Promise<{ styles: Record<string, string>; problems: string[]; home: number | string }> {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(`${base}/about`, { waitUntil: 'networkidle' });
      // Browser defaults: Times, no max-width, an 8px margin; app.css changes all three.
      const styles = await page.evaluate(() => {
        const body = getComputedStyle(document.body);
        return { font: body.fontFamily, maxWidth: body.maxWidth, marginTop: body.marginTop, title: document.title };
      });
      const home = await page.evaluate(() => document.querySelector('nav a')?.getAttribute('href') ?? null);
      return { styles, problems, home: home === null ? 'no link home' : (await fetch(new URL(home, base))).status };
    } finally {
      await page.close();
    }
  }

  const STYLED = { font: 'system-ui, sans-serif', maxWidth: '640px', marginTop: '48px', title: 'About' };

  it('npm run dev: /about is styled in Chromium by /static/app.css, with no failed request or console error', async () => {
    const dev = await DevRun.npm(root, 'dev', projectEnv());
    try {
      await dev.waitForBoot();
      const seen = await about(dev.base);
      expect(seen, dev.output).toEqual({ styles: STYLED, problems: [], home: 200 });
    } finally {
      await dev.stop();
    }
  }, 120_000);

  it('npm run build && npm start: /about is styled in Chromium by the built app, with no failed request or console error', async () => {
    const build = await npmRun('build');
    expect(build.code, build.output).toBe(0);
    const start = await DevRun.npm(root, 'start', projectEnv());
    try {
      await start.waitForBoot();
      const seen = await about(start.base);
      expect(seen, start.output).toEqual({ styles: STYLED, problems: [], home: 200 });
      const css = await fetch(`${start.base}/static/app.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    } finally {
      await start.stop();
    }
  }, 240_000);
});
