/**
 * While the app cannot start under `fw dev` (a syntax error in fluid/app.ts, a module it imports
 * that throws, a config error), `fw dev` answers on the app's address instead of leaving the
 * port closed (the browser used to get "connection refused"): a 503 page showing what the
 * terminal shows, the file and line, and the lines around it (none of a config file: it holds
 * secrets), JSON or text for other callers, details to loopback peers only; and it frees the port
 * for the app once the file is saved. In Chromium, an open page of the app reloads to that page
 * when the app goes down and back to the app when it is fixed. `fw run` has no such page.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { cleanupDevProjects, devProject, DevRun, edit, htmxApp, requireBuild } from './helpers.js';

let root: string;
const APP = 'fluid/app.ts';
const INI = 'app_configs/devapp.ini';
const files: Record<string, string> = { ...htmxApp(), [INI]: 'SECRET_KEY = down-page-secret-value\n' };

beforeAll(() => {
  requireBuild();
  root = devProject(files);
});

// A test that failed half way leaves no broken file to the next one.
afterEach(() => {
  for (const rel of [APP, INI]) {
    if (readFileSync(path.join(root, rel), 'utf8') !== files[rel]) writeFileSync(path.join(root, rel), files[rel]!);
  }
  rmSync(path.join(root, 'fluid/settings.ts'), { force: true });
});

afterAll(() => cleanupDevProjects());

const get = (base: string, url: string, accept: string) => fetch(`${base}${url}`, { headers: { accept } });
const lineOf = (rel: string, text: string) =>
  readFileSync(path.join(root, rel), 'utf8')
    .split('\n')
    .findIndex((l) => l === text) + 1;
/** Polls until `base` answers 200: the app is back (no timing asserted). */
async function appAnswers(dev: DevRun, url = '/'): Promise<void> {
  await dev.waitFor(async () => (await fetch(`${dev.base}${url}`).catch(() => undefined))?.status === 200, 'the app to answer 200');
}

describe('fw dev while the app cannot start', () => {
  let dev: DevRun;
  beforeAll(async () => {
    dev = await DevRun.start(root, ['dev']);
    await dev.waitForBoot();
  }, 90_000);
  afterAll(async () => {
    expect(await dev?.stop()).toBe(0);
  });

  it('a syntax error in fluid/app.ts: a 503 page with the error, the file and line and its source; JSON and text too; the app is back once it is fixed', async () => {
    edit(root, APP, 'export default fluid;', 'const broken: number = ;\nexport default fluid;');
    const line = lineOf(APP, 'const broken: number = ;');
    await dev.waitFor(() => dev.output.includes(`Until then ${dev.base} answers with this error.`), 'the down page');
    expect(dev.output).toContain(`${APP}:${line}:`); // the terminal's own line (esbuild's)

    const page = await get(dev.base, '/', 'text/html,application/xhtml+xml');
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('ERROR: Unexpected &quot;;&quot;'); // the terminal's message, escaped
    expect(html).toMatch(new RegExp(`The file: <code>fluid/app\\.ts:${line}:\\d+</code>`));
    expect(html).toContain(`<span class="hit"><i>${line}</i>const broken: number = ;</span>`);
    expect(html).toContain('the app exited (code 1); waiting for changes to restart it.');

    const json = await get(dev.base, '/api/items', 'application/json');
    expect(json.status).toBe(503);
    const body = (await json.json()) as { error: string; debug: { location: { file: string; line: number }; message: string } };
    expect(body.error).toBe('Service Unavailable');
    expect(body.debug.location).toMatchObject({ file: APP, line });
    expect(body.debug.message).toContain('Unexpected ";"');

    const text = await get(dev.base, '/anything', '*/*');
    expect(text.status).toBe(503);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toMatch(/^error: Transform failed/);

    edit(root, APP, 'const broken: number = ;\n', '');
    await appAnswers(dev);
    expect(await (await fetch(`${dev.base}/`)).text()).toContain('<h1 class="text-lg">devapp</h1>');
  }, 120_000);

  it('a module fluid/app.ts imports throws: the page names the line it threw at, as the terminal does', async () => {
    edit(root, APP, 'export default fluid;', "import './settings.js';\nexport default fluid;");
    const settings = path.join(root, 'fluid/settings.ts');
    writeFileSync(settings, "export const url = process.env.NO_SUCH_URL;\nif (!url) throw new Error('NO_SUCH_URL is not set');\n");
    try {
      await dev.waitFor(() => dev.output.includes('error: NO_SUCH_URL is not set\n  at fluid/settings.ts:2:'), 'the error');
      await dev.waitFor(async () => (await fetch(dev.base).catch(() => undefined))?.status === 503, 'the down page');
      const html = await (await get(dev.base, '/', 'text/html')).text();
      expect(html).toContain('<h1>NO_SUCH_URL is not set</h1>');
      expect(html).toMatch(/error: NO_SUCH_URL is not set\n {2}at fluid\/settings\.ts:2:\d+/);
      expect(html).toContain(`<span class="hit"><i>2</i>if (!url) throw new Error(&#39;NO_SUCH_URL is not set&#39;);</span>`);
    } finally {
      edit(root, APP, "import './settings.js';\n", '');
      rmSync(settings);
    }
    await appAnswers(dev);
  }, 120_000);

  it('a config error: the page names the ini and its line, but never shows the ini (it holds SECRET_KEY)', async () => {
    edit(root, INI, 'SECRET_KEY', 'CACHE_TIPE = memory\nSECRET_KEY');
    try {
      await dev.waitFor(() => dev.output.includes('CACHE_TIPE: unknown key'), 'the config error');
      await dev.waitFor(async () => (await fetch(dev.base).catch(() => undefined))?.status === 503, 'the down page');
      const html = await (await get(dev.base, '/', 'text/html')).text();
      expect(html).toContain('The file: <code>app_configs/devapp.ini:1</code>');
      expect(html).toContain('CACHE_TIPE: unknown key; did you mean CACHE_TYPE?');
      expect(html).not.toContain('down-page-secret-value');
    } finally {
      edit(root, INI, 'CACHE_TIPE = memory\n', '');
    }
    await appAnswers(dev);
  }, 120_000);

  it('gives a peer that is not on this host the 503 without the error', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    expect(external, 'this test needs a non-loopback IPv4 interface').toBeDefined();
    const remote = await DevRun.start(root, ['dev', '--host', '0.0.0.0']);
    try {
      await remote.waitForBoot();
      edit(root, APP, 'export default fluid;', "throw new Error('hidden from others');\nexport default fluid;");
      await remote.waitFor(() => remote.output.includes('answers with this error.'), 'the down page');
      const port = new URL(remote.base).port;
      const fromOutside = await fetch(`http://${external!.address}:${port}/`, { headers: { accept: 'text/html' } });
      expect(fromOutside.status).toBe(503);
      expect(await fromOutside.text()).toBe('Service Unavailable\n');
      const fromHere = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
      expect(await fromHere.text()).toContain('hidden from others');
    } finally {
      edit(root, APP, "throw new Error('hidden from others');\n", '');
      expect(await remote.stop()).toBe(0);
    }
  }, 120_000);

  it('in Chromium, an open page reloads to the error when the app goes down, and back to the app once it is fixed', async () => {
    await appAnswers(dev);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const listening = page.waitForResponse((r) => r.url().endsWith('/fluid/dev/events'));
      await page.goto(`${dev.base}/`);
      await listening;
      expect(await page.locator('h1').textContent()).toBe('devapp');
      edit(root, APP, 'export default fluid;', "throw new Error('shown in the browser');\nexport default fluid;");
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'shown in the browser', undefined, { timeout: 60_000 });
      expect(await page.locator('pre.terminal').textContent()).toMatch(/at fluid\/app\.ts:\d+:\d+/);
      edit(root, APP, "throw new Error('shown in the browser');\n", '');
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'devapp', undefined, { timeout: 60_000 });
    } finally {
      await browser.close();
    }
  }, 180_000);
});

describe('fw run (not the dev loop)', () => {
  it('has no such page: an app that cannot start exits and leaves the port closed', async () => {
    edit(root, APP, 'export default fluid;', "throw new Error('no page in production');\nexport default fluid;");
    try {
      const run = await DevRun.start(root, ['run']);
      expect(await run.exited).toBe(1);
      expect(run.output).toContain('error: no page in production');
      await expect(fetch(run.base)).rejects.toThrow();
    } finally {
      edit(root, APP, "throw new Error('no page in production');\n", '');
    }
  }, 60_000);
});
