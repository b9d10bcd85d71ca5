/// <reference lib="dom" />
/**
 * In a real browser: a generated Vite React surface in production (built at boot, served at /,
 * a click updates it, a public asset loads through the catch-all with the vite_ns cookie), and
 * in debug mode an edit to a source file hot-reloads through /vite-dev without a page reload.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { Fluid } from '@fw/kernel';
import { launchBrowser } from '../support/browser.js';
import { memoryLogger, start } from '../kernel/helpers.js';
import { cleanupViteProjects, viteProject } from '../frontend/helpers.js';

let browser: BrowserContext;
const fluids: Fluid[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(fluids.map((f) => f.close()));
  cleanupViteProjects();
});

describe('production', () => {
  let base: string;
  let root: string;

  beforeAll(async () => {
    root = viteProject({
      config: { FW_BUILD_FRONTEND: true },
      surfaces: [{ frontend: { type: 'vite', framework: 'react' } }],
    });
    const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
    fluids.push(fluid);
    base = await start(fluid); // runs `npm run build --workspaces` first
  }, 120_000);

  it('renders the built React surface at / and a click updates it', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/`);
    const button = page.locator('button.counter');
    await button.waitFor();
    expect(await button.textContent()).toBe('Count is 0');
    await button.click();
    await button.click();
    expect(await button.textContent()).toBe('Count is 2');
    const scripts = await page.$$eval('script[type=module]', (els) => els.map((e) => e.getAttribute('src')));
    expect(scripts.every((s) => s?.startsWith('/frontend/assets/'))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a public asset the code refers to as /icons.svg loads through the catch-all with the cookie', async () => {
    const context = browser;
    await context.clearCookies();
    const page = await context.newPage();
    const before = await page.goto(`${base}/icons.svg`);
    expect(before?.status()).toBe(404); // no cookie yet: the catch-all does not look
    await page.goto(`${base}/`);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'vite_ns')?.value).toBe('fluid/frontend');
    const fetched = await page.evaluate(async () => {
      const res = await fetch('/icons.svg');
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    });
    expect(fetched.status).toBe(200);
    expect(fetched.type).toMatch(/image\/svg\+xml/);
    expect(fetched.body).toBe(readFileSync(path.join(root, 'fluid/frontend/public/icons.svg'), 'utf8'));
    await page.close();
  });
});

describe('debug', () => {
  let base: string;
  let root: string;
  let fluid: Fluid;

  beforeAll(async () => {
    root = viteProject({ config: { DEBUG: true }, surfaces: [{ frontend: { type: 'vite', framework: 'react' } }] });
    fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
    fluids.push(fluid);
    base = await start(fluid);
  }, 120_000);

  it('serves the source index rewritten to /vite-dev with the client and the React preamble', async () => {
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain('src="/vite-dev/fluid/frontend/src/main.jsx"');
    expect(html).toContain('/vite-dev/@vite/client');
    expect(html).toContain('/vite-dev/@react-refresh');
  });

  it('an edit to App.jsx reaches the page through the /vite-dev HMR socket without a reload, keeping state', async () => {
    const page = await browser.newPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${base}/`);
    const button = page.locator('button.counter');
    await button.waitFor({ timeout: 60_000 });
    await button.click();
    expect(await button.textContent()).toBe('Count is 1');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Get started');
    await page.evaluate(() => {
      (window as unknown as { __notReloaded: boolean }).__notReloaded = true;
    });
    const app = path.join(root, 'fluid/frontend/src/App.jsx');
    writeFileSync(app, readFileSync(app, 'utf8').replace('<h1>Get started</h1>', '<h1>Hot edited</h1>'));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Hot edited', undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
    expect(await button.textContent()).toBe('Count is 1');
    expect(sockets.some((u) => u.startsWith(base.replace('http', 'ws') + '/vite-dev/'))).toBe(true);
    await page.close();
  });

  it('the proxy survives a dev-server restart', async () => {
    await fluid.frontend.restartDevServer();
    const res = await fetch(`${base}/vite-dev/@vite/client`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('HMRClient');
  });
});
