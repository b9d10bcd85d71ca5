/**
 * `fw dev` as a user runs it (`npm run dev`), on an htmx app with Tailwind on: it boots once and
 * stays up (bug 1: the compiled stylesheet restarted it forever), DEBUG is on with the app config
 * `fw create app` writes (bug 7), template, static, temp-file and frontend edits never restart it
 * (bug 2), a new class in a template lands in the compiled CSS and the browser is told to reload,
 * and a server code change restarts it exactly once. `fw run` (production) has none of it.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { cleanupDevProjects, devProject, DevRun, edit, FW_BIN, htmxApp, requireBuild, sse } from './helpers.js';

const RELOAD_TAG = '<script src="/fluid/dev/reload.js" defer></script>';
let root: string;

beforeAll(() => {
  requireBuild();
  root = devProject(htmxApp({ tailwind: true, ini: '' }));
  // The app config a user gets from `fw create app` (bug 7: it used to pin DEBUG = false).
  const created = spawnSync(process.execPath, [FW_BIN, 'create', 'app', 'devapp', '--force'], { cwd: root, encoding: 'utf8' });
  expect(created.status, created.stderr).toBe(0);
});

afterAll(() => cleanupDevProjects());

describe('fw dev', () => {
  let dev: DevRun;

  beforeAll(async () => {
    // An hour to drain: a restart that waited for a browser's open event stream would never come back within a test.
    dev = await DevRun.start(root, ['dev'], { SERVER_DRAIN_TIMEOUT: '3600' });
    await dev.waitForBoot();
  }, 90_000);

  afterAll(async () => {
    expect(await dev?.stop()).toBe(0);
  });

  it('runs with DEBUG on (FW_ENV=development) although the app config sets no DEBUG: pages get the live-reload client', async () => {
    expect(readFileSync(path.join(root, 'app_configs/devapp.ini'), 'utf8')).not.toMatch(/^DEBUG/m);
    const html = await (await fetch(`${dev.base}/`)).text();
    expect(html).toContain('<h1 class="text-lg">devapp</h1>');
    expect(html).toContain(RELOAD_TAG);
    const client = await fetch(`${dev.base}/fluid/dev/reload.js`);
    expect(client.status).toBe(200);
    expect(await client.text()).toContain('EventSource');
  });

  it('with Tailwind on, idles 20 s without a single restart (bug 1)', async () => {
    expect(readFileSync(path.join(root, 'fluid/static/tailwind.css'), 'utf8')).toContain('.text-lg');
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    expect(dev.restarts, dev.output).toBe(0);
    expect(dev.boots).toBe(1);
  }, 40_000);

  it('a new class in a template lands in the compiled CSS, then the browser is told to reload; no restart', async () => {
    const events = await sse(`${dev.base}/fluid/dev/events`);
    try {
      await dev.waitFor(() => events.events.some((e) => e.event === 'hello'), 'the hello event', 10_000);
      edit(root, 'fluid/templates/index.html', 'class="text-lg"', 'class="text-lg tracking-widest"');
      const css = path.join(root, 'fluid/static/tailwind.css');
      await dev.waitFor(() => readFileSync(css, 'utf8').includes('.tracking-widest'), 'the class in tailwind.css', 30_000);
      await dev.waitFor(() => events.events.some((e) => e.event === 'reload'), 'the reload event', 30_000);
      expect(await (await fetch(`${dev.base}/`)).text()).toContain('tracking-widest');
      expect(dev.restarts, dev.output).toBe(0);
    } finally {
      events.close();
    }
  });

  it('a stylesheet edit swaps the CSS in place (a css event, no reload, no restart)', async () => {
    const events = await sse(`${dev.base}/fluid/dev/events`);
    try {
      await dev.waitFor(() => events.events.some((e) => e.event === 'hello'), 'the hello event', 10_000);
      edit(root, 'fluid/static/app.css', 'margin: 0', 'margin: 1px');
      await dev.waitFor(() => events.events.some((e) => e.event === 'css'), 'the css event', 30_000);
      expect(events.events.map((e) => e.event)).not.toContain('reload');
      expect(dev.restarts).toBe(0);
    } finally {
      events.close();
    }
  });

  it('temp files, .fw/, compiled output and frontend workspace edits never restart; a server code edit restarts exactly once (bug 2)', async () => {
    const write = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    };
    write('fluid/app.ts.fw-tmp-1234-abcd', 'partial write');
    write('.fw/record.json', '{}');
    write('fluid/frontend/src/App.tsx', 'export const App = () => null;\n');
    write('additives/blog/frontend/src/main.ts', 'console.log(1);\n');
    write('fluid/static/tailwind.css', readFileSync(path.join(root, 'fluid/static/tailwind.css'), 'utf8') + '\n');
    write('fluid/frontend/dist/index.html', '<p>built</p>');
    write('fluid/app.test.ts', '// a test file\n');
    await new Promise((resolve) => setTimeout(resolve, 500)); // so a wrong restart would name one of them
    edit(root, 'fluid/app.ts', "{ title: 'devapp' }", "{ title: 'edited live' }");
    await dev.waitFor(async () => (await fetch(`${dev.base}/`).then((r) => r.text()).catch(() => '')).includes('edited live'), 'the restart after editing fluid/app.ts');
    expect(dev.output.match(/fw dev: (.*) changed, restarting/g), dev.output).toEqual(['fw dev: fluid/app.ts changed, restarting']);
    expect(dev.boots).toBe(2);
  });

  it('a page open across a restart does not hold the old app open, hears a new hello (its boot id changed) and so reloads', async () => {
    const before = await sse(`${dev.base}/fluid/dev/events`);
    const browser = await launchBrowser();
    try {
      await dev.waitFor(() => before.events.some((e) => e.event === 'hello'), 'the hello event', 10_000);
      const page = await browser.newPage();
      const listening = page.waitForResponse((r) => r.url().endsWith('/fluid/dev/events'));
      await page.goto(`${dev.base}/`);
      await listening;
      await page.evaluate(() => Object.assign(window, { beforeRestart: true }));
      // Both event streams stay open across the restart (the browser's also reconnects at once).
      edit(root, 'app_configs/devapp.ini', 'SECRET_KEY', '; edited\nSECRET_KEY');
      await dev.waitForBoot(3);
      await page.waitForFunction(() => !('beforeRestart' in window), undefined, { timeout: 30_000 });
      expect(await page.locator('h1').textContent()).toBe('edited live');
      const after = await sse(`${dev.base}/fluid/dev/events`);
      try {
        await dev.waitFor(() => after.events.some((e) => e.event === 'hello'), 'the hello event after the restart', 10_000);
        expect(after.events[0]!.data).not.toBe(before.events[0]!.data);
        expect(dev.output).toContain('fw dev: app_configs/devapp.ini changed, restarting');
      } finally {
        after.close();
      }
    } finally {
      before.close();
      await browser.close();
    }
  });
});

describe('fw dev on a port in use (npm run dev twice)', () => {
  it('says the port is taken and how to choose another, and the app exits instead of hanging', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const dev = await DevRun.start(root, ['dev'], {}, port);
    try {
      await dev.waitFor(() => dev.output.includes('the app exited (code 1)'), 'the app to exit');
      expect(dev.output).toContain(`Cannot listen on 127.0.0.1:${port}: EADDRINUSE: another process (another "npm run dev"?) listens there`);
      expect(dev.output).toContain('--port <n> or PORT=<n>');
    } finally {
      expect(await dev.stop()).toBe(0);
      taken.close();
    }
  }, 60_000);
});

describe('fw dev leaves no app behind', () => {
  const refused = (base: string) => fetch(base).then(
    () => false,
    () => true,
  );

  // Ctrl-C reaches the app as SIGINT (its log says so); a closed terminal stops it as SIGTERM.
  it.each([
    ['Ctrl-C', 'SIGINT', 'SIGINT'],
    ['its terminal closing', 'SIGHUP', 'SIGTERM'],
  ] as const)('on %s (%s): it stops the app, which hears %s, and exits 0', async (_what, signal, heard) => {
    const dev = await DevRun.start(root, ['dev']);
    await dev.waitForBoot();
    dev.child.kill(signal);
    expect(await dev.exited).toBe(0);
    expect(dev.output).toContain(`${heard}: shutting down`);
    expect(await refused(dev.base)).toBe(true);
  }, 60_000);

  it('when it is killed (SIGKILL): the app, in its own process group, stops by itself', async () => {
    const dev = await DevRun.start(root, ['dev']);
    await dev.waitForBoot();
    dev.child.kill('SIGKILL');
    await dev.exited;
    const deadline = Date.now() + 30_000;
    while (!(await refused(dev.base))) {
      if (Date.now() > deadline) throw new Error(`the app still serves ${dev.base} after fw dev was killed`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);
});

describe('fw run (production)', () => {
  it('has no live reload: no client in pages, no endpoints', async () => {
    const run = await DevRun.start(root, ['run']);
    try {
      await run.waitForBoot();
      const html = await (await fetch(`${run.base}/`)).text();
      expect(html).toContain('<h1');
      expect(html).not.toContain('/fluid/dev/');
      expect((await fetch(`${run.base}/fluid/dev/reload.js`)).status).toBe(404);
      expect((await fetch(`${run.base}/fluid/dev/events`)).status).toBe(404);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  }, 60_000);
});
