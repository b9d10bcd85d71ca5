/// <reference lib="dom" />
/**
 * The default CSP in real Chromium: the generated htmx/Alpine home page (rendered from the
 * project blueprint) swaps and counts, its CSRF form posts, and a built React surface renders and
 * clicks, with no `securitypolicyviolation` event and no console error. A control page shows the
 * policy is enforced: an inline script without the nonce is blocked, one with it runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Fluid } from '@fw/kernel';
import { installAuth } from '@fw/kernel/auth';
import { launchBrowser } from '../support/browser.js';
import { cleanupProjects, makeFluid, memoryLogger, start } from '../kernel/helpers.js';
import { cleanupViteProjects, REPO_ROOT, viteProject } from '../frontend/helpers.js';
import { testUsers } from '../auth/helpers.js';

let browser: BrowserContext;
const fluids: Fluid[] = [];

/** A blueprint of the generated project, rendered as `fw create project` would (htmx + Alpine). */
function blueprint(rel: string): string {
  const source = readFileSync(path.join(REPO_ROOT, 'blueprints/project', `${rel}.hbs`), 'utf8');
  return Handlebars.compile(source)({ name: 'demo', htmx: true, alpine: true });
}

/** Opens `url` recording CSP violations, console errors, page errors and failed loads (but the favicon the app has none of). */
async function visit(url: string): Promise<{ page: Page; problems: () => Promise<string[]> }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // a failed load is reported below with its URL
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().startsWith('Failed to load resource')) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') problems.push(`${r.status()} ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  });
  await page.goto(url);
  return {
    page,
    problems: async () => [...problems, ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations))],
  };
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(fluids.map((f) => f.close()));
  cleanupProjects();
  cleanupViteProjects();
});

describe('the generated htmx + Alpine page', () => {
  let base: string;
  beforeAll(async () => {
    const fluid = makeFluid({
      config: { APP_FRONTEND: { type: 'htmx', alpine: true }, CACHE_TYPE: 'memory' },
      files: {
        'fluid/templates/index.html': blueprint('fluid/templates/index.html'),
        'fluid/templates/hello.html': blueprint('fluid/templates/hello.html'),
        'fluid/static/app.css': readFileSync(path.join(REPO_ROOT, 'blueprints/project/fluid/static/app.css'), 'utf8'),
        'fluid/static/favicon.svg': readFileSync(path.join(REPO_ROOT, 'blueprints/project/fluid/static/favicon.svg'), 'utf8'),
        'fluid/templates/form.html':
          '<!doctype html><html><head><title>form</title></head><body><form method="post" action="/form">{{csrf_field}}<input name="name" value="Ada"><button id="send">send</button></form></body></html>',
        'fluid/templates/control.html':
          '<!doctype html><html><head><title>c</title></head><body><p id="a">no</p><p id="b">no</p>' +
          '<script>document.getElementById("a").textContent = "ran"</script>' +
          '<script nonce="{{csp_nonce}}">document.getElementById("b").textContent = "ran"</script>' +
          '<button id="attr" onclick="this.textContent = \'ran\'">no</button></body></html>',
      },
    });
    fluids.push(fluid);
    installAuth(fluid, { users: testUsers() });
    fluid.app.get('home', '/', (ctx) => ctx.render('index.html', { title: 'demo' }));
    fluid.app.get('hello', '/hello', (ctx) => ctx.render('hello.html', { time: '12:00:00' }));
    fluid.app.get('form', '/form', (ctx) => ctx.render('form.html'));
    fluid.app.post('send', '/form', (ctx) => `<p id="sent">sent ${String((ctx.request.body as { name?: string }).name)}</p>`);
    fluid.app.get('control', '/control', (ctx) => ctx.render('control.html'));
    base = await start(fluid);
  });

  it('htmx swaps the server fragment in and the Alpine counter counts, with no violation or error', async () => {
    const { page, problems } = await visit(`${base}/`);
    expect((await page.request.get(`${base}/`)).headers()['content-security-policy']).toContain("script-src 'self'");
    await page.click('button[hx-get="/hello"]');
    await page.waitForSelector('#hello time');
    expect((await page.textContent('#hello'))?.trim()).toBe('Hello from the server, at 12:00:00.');
    await page.waitForFunction(() => document.querySelector('[x-text="count"]')?.textContent === '0');
    await page.click('button[x-on\\:click="count++"]');
    await page.click('button[x-on\\:click="count++"]');
    await page.waitForFunction(() => document.querySelector('[x-text="count"]')?.textContent === '2');
    expect(await problems()).toEqual([]);
    await page.close();
  });

  it('a form with its CSRF field posts (the referrer policy keeps Origin for the CSRF check)', async () => {
    const { page, problems } = await visit(`${base}/form`);
    await Promise.all([page.waitForURL(`${base}/form`), page.click('#send')]);
    await page.waitForSelector('#sent');
    expect(await page.textContent('#sent')).toBe('sent Ada');
    expect(await problems()).toEqual([]);
    await page.close();
  });

  it('the policy is enforced: an inline script without the nonce and an inline handler are blocked, the nonced one runs', async () => {
    const { page, problems } = await visit(`${base}/control`);
    await page.waitForFunction(() => document.getElementById('b')?.textContent === 'ran');
    await page.click('#attr');
    expect(await page.textContent('#a')).toBe('no');
    expect(await page.textContent('#attr')).toBe('no');
    const found = await problems();
    expect(found.filter((p) => p.startsWith('script-src-elem blocked inline'))).toHaveLength(1);
    expect(found.filter((p) => p.startsWith('script-src-attr blocked inline'))).toHaveLength(1);
    await page.close();
  });
});

describe('a React surface in production', () => {
  let base: string;
  beforeAll(async () => {
    const root = viteProject({ config: { FW_BUILD_FRONTEND: true }, surfaces: [{ frontend: { type: 'vite', framework: 'react' } }] });
    const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
    fluids.push(fluid);
    base = await start(fluid); // builds the workspace first
  }, 180_000);

  it('renders and clicks with no violation or error', async () => {
    const { page, problems } = await visit(`${base}/`);
    const button = page.locator('button.counter');
    await button.waitFor();
    await button.click();
    await button.click();
    expect(await button.textContent()).toBe('Count is 2');
    expect(await page.$$eval('img', (imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    expect(await problems()).toEqual([]);
    await page.close();
  });
});

describe('a React surface in debug (the relaxed policy for Vite HMR)', () => {
  let base: string;
  beforeAll(async () => {
    const root = viteProject({ config: { DEBUG: true }, surfaces: [{ frontend: { type: 'vite', framework: 'react' } }] });
    const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
    fluids.push(fluid);
    base = await start(fluid);
  }, 180_000);

  it("the dev client, the nonced refresh preamble and the HMR socket's page run with no violation; only debug allows inline styles and ws:", async () => {
    const { page, problems } = await visit(`${base}/`);
    const res = await page.request.get(`${base}/`);
    const policy = res.headers()['content-security-policy']!;
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(await res.text()).toContain(`<script nonce="${nonce}" type="module">\nimport RefreshRuntime`);
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("connect-src 'self' ws: wss:");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    const button = page.locator('button.counter');
    await button.waitFor({ timeout: 60_000 });
    await button.click();
    expect(await button.textContent()).toBe('Count is 1');
    await page.waitForFunction(() => (window as unknown as { __vite_plugin_react_preamble_installed__?: boolean }).__vite_plugin_react_preamble_installed__ === true);
    expect(await problems()).toEqual([]);
    await page.close();
  });
});
