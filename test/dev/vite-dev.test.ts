/**
 * `fw dev` of a Vite app (React, TypeScript):
 *
 * - it names one URL to open: the app's own (`fw: <app> serving at <url>`). The internal Vite dev
 *   server's address used to be the first line on a terminal (`info vite dev server started
 *   {"origin":"http://127.0.0.1:<port>"}`), before the fw line, and people opened it. On a
 *   terminal the log is text, so the test asks for that;
 * - an open page of it (Vite's client, not fw's live reload) reloads after the app restarts (the
 *   debug CSP refused the worker Vite's client pings the server from, so it never did), to
 *   `fw dev`'s page while the app cannot start, and back to the app once it is fixed
 *   (down-page.test.ts has the rest).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { cleanupViteProjects, viteProject } from '../frontend/helpers.js';
import { DevRun, edit, requireBuild, writeTree } from './helpers.js';

let root: string;
let dev: DevRun;

beforeAll(async () => {
  requireBuild();
  // Under the repo's .tmp/: vite, react and the plugin resolve from the checkout's node_modules.
  root = viteProject({ surfaces: [{ frontend: { type: 'vite', framework: 'react', typescript: true } }] });
  writeTree(root, {
    'fluid/app.ts': ["import { Fluid } from '@fw/kernel';", "export default new Fluid({ root: new URL('..', import.meta.url) });", ''].join('\n'),
  });
  dev = await DevRun.start(root, ['dev'], { FW_LOG_FORMAT: 'text' });
  await dev.waitForBoot();
}, 120_000);

afterAll(async () => {
  await dev?.stop();
  cleanupViteProjects();
});

it('prints one URL, the app\'s own: never the internal Vite server\'s, nor Vite\'s banner', async () => {
  // The Vite index through the app: its request log line comes after everything logged at boot.
  const index = await fetch(`${dev.base}/`);
  expect(index.status).toBe(200);
  expect(await index.text()).toContain('/vite-dev/@vite/client');
  await dev.waitFor(() => /GET \/ 200/.test(dev.output), 'the request log line');
  const urls = dev.output.match(/https?:\/\/[^\s"',)]+/g) ?? [];
  expect(urls, dev.output).toEqual([dev.base]);
  expect(dev.output).toContain(`fw: demo serving at ${dev.base}`);
  expect(dev.output).not.toMatch(/VITE v\d|Local:|Network:/);
});

it("the dev proxy's first request prints no deprecation warning (http-proxy, under koa-proxies, calls util._extend)", async () => {
  const client = await fetch(`${dev.base}/vite-dev/@vite/client`);
  expect(client.status).toBe(200);
  await client.text();
  await dev.waitFor(() => /GET \/vite-dev\/@vite\/client 200/.test(dev.output), 'the request log line');
  expect(dev.output).not.toMatch(/DeprecationWarning|DEP0060/);
});

it('an open page reloads to the error while the app cannot start, and back to the app once it is fixed', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${dev.base}/`);
    await page.locator('h1', { hasText: 'Get started' }).waitFor({ timeout: 60_000 });
    edit(root, 'fluid/app.ts', 'export default', "throw new Error('vite page sees this');\nexport default");
    await page.locator('h1', { hasText: 'vite page sees this' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('pre.terminal').textContent()).toMatch(/at fluid\/app\.ts:2:\d+/);
    edit(root, 'fluid/app.ts', "throw new Error('vite page sees this');\n", '');
    await page.locator('h1', { hasText: 'Get started' }).waitFor({ timeout: 60_000 });
  } finally {
    await browser.close();
  }
}, 180_000);

it('an open page reloads after a server code edit restarts the app', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${dev.base}/`);
    await page.locator('h1', { hasText: 'Get started' }).waitFor({ timeout: 60_000 });
    await page.evaluate(() => Object.assign(window, { beforeRestart: true }));
    const boots = dev.boots;
    edit(root, 'fluid/app.ts', 'export default', '// edited\nexport default');
    await dev.waitForBoot(boots + 1);
    await page.waitForFunction(() => !('beforeRestart' in window), undefined, { timeout: 60_000 });
    await page.locator('h1', { hasText: 'Get started' }).waitFor({ timeout: 60_000 });
  } finally {
    await browser.close();
  }
}, 180_000);
