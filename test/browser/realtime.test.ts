/**
 * The browser client `window.fw` in headless Chromium, on a page served by a Fluid: subscribe,
 * receive a triggered event, query, reconnect after the server closes the socket and still
 * receive; the extension hook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Fluid } from '@fw/kernel';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';
import { launchBrowser } from '../support/browser.js';

let fluid: Fluid;
let browser: BrowserContext;
let page: Page;
let base: string;

type Win = { got: unknown[]; fw: import('../../runtime-kernel/static/fw/fw.d.ts').Fw };

beforeAll(async () => {
  fluid = makeFluid();
  fluid.app.get('home', '/', () => '<!doctype html><html><head><script src="/fluid/static/fw/fw.js"></script></head><body>fw</body></html>');
  fluid.events.createSignal('news');
  fluid.sockets.events.query('hello', (payload: { name: string }) => `hello ${payload.name}`, { public: true });
  fluid.sockets.events.query('broken', () => {
    throw new Error('nope');
  }, { public: true });
  base = await start(fluid);
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.goto(base + '/');
});

afterAll(async () => {
  await browser?.close();
  await fluid?.close();
  cleanupProjects();
});

const received = () => page.evaluate(() => (globalThis as unknown as Win).got);

describe('window.fw in Chromium', () => {
  it('subscribes and receives a triggered event', async () => {
    await page.evaluate(async () => {
      const w = globalThis as unknown as Win;
      w.got = [];
      await w.fw.events.subscribe('news', (data) => void w.got.push(data));
    });
    expect(fluid.sockets.events.hasSubscriptions('news')).toBe(true);
    fluid.events.trigger('news', { n: 1 });
    await page.waitForFunction(() => (globalThis as unknown as Win).got.length === 1);
    expect(await received()).toEqual([{ n: 1 }]);
  });

  it('answers queries by id; a failing query rejects with its error', async () => {
    const answers = await page.evaluate(async () => {
      const { fw } = globalThis as unknown as Win;
      const [a, b] = await Promise.all([fw.events.query('hello', { name: 'ann' }), fw.events.query('hello', { name: 'bob' })]);
      const failed = await fw.events.query('broken').then(
        () => 'resolved',
        (err: Error) => err.message,
      );
      const unknown = await fw.events.subscribe('nope', () => undefined).then(
        () => 'resolved',
        (err: Error) => err.message,
      );
      return { a, b, failed, unknown };
    });
    expect(answers).toEqual({ a: 'hello ann', b: 'hello bob', failed: "Query 'broken' failed.", unknown: "Unknown event 'nope'." });
  });

  it('reconnects after the server closes the socket, resubscribes and still receives', async () => {
    const manager = fluid.sockets.events;
    const before = [...manager.connections.keys()];
    expect(before).toHaveLength(1);
    for (const socket of manager.connections.values()) socket.close(1012, 'restart');
    await expect.poll(() => [...manager.connections.keys()].some((sid) => !before.includes(sid)), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => manager.hasSubscriptions('news'), { timeout: 10_000 }).toBe(true);
    fluid.events.trigger('news', { n: 2 });
    await page.waitForFunction(() => (globalThis as unknown as Win).got.length === 2);
    expect(await received()).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('unsubscribes, and registers extensions through fw.extend', async () => {
    const result = await page.evaluate(async () => {
      const { fw } = globalThis as unknown as Win;
      const left = await fw.events.unsubscribe('news');
      const ext = fw.extend('demo', (f) => ({ hasEvents: typeof f.events.query === 'function' }));
      let twice = '';
      try {
        fw.extend('demo', () => 1);
      } catch (err) {
        twice = (err as Error).message;
      }
      return { left, ext, stored: fw.ext.demo, twice };
    });
    expect(result).toEqual({
      left: true,
      ext: { hasEvents: true },
      stored: { hasEvents: true },
      twice: "fw.extend: an extension named 'demo' is already registered",
    });
    expect(fluid.sockets.events.hasSubscriptions('news')).toBe(false);
  });

  it('serves fw.js and fw.d.ts from /fluid/static/fw/', async () => {
    const js = await fetch(`${base}/fluid/static/fw/fw.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${base}/fluid/static/fw/fw.d.ts`)).status).toBe(200);
  });
});
