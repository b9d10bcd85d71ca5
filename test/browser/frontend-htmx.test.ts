/// <reference lib="dom" />
/** In a real browser: an htmx page swaps content on a click, an Alpine counter counts. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import type { Fluid } from '@fw/kernel';
import { launchBrowser } from '../support/browser.js';
import { cleanupProjects, makeFluid, start } from '../kernel/helpers.js';

let browser: BrowserContext;
let fluid: Fluid;
let base: string;

beforeAll(async () => {
  browser = await launchBrowser();
  fluid = makeFluid({
    config: { APP_FRONTEND: { type: 'htmx', alpine: true } },
    files: {
      'fluid/templates/index.html':
        '<!doctype html><html><head><title>t</title>{{frontend}}</head><body>' +
        '<button id="load" hx-get="/part" hx-target="#out">load</button><div id="out">before</div>' +
        '<div x-data="{ n: 0 }"><button id="inc" @click="n++">+</button><span id="count" x-text="n"></span></div>' +
        '</body></html>',
    },
  });
  fluid.app.get('home', '/', (ctx) => ctx.render('index.html'));
  fluid.app.get('part', '/part', () => '<b id="swapped">swapped in</b>');
  base = await start(fluid);
});

afterAll(async () => {
  await browser?.close();
  await fluid?.close();
  cleanupProjects();
});

it('an htmx button swaps server HTML into the page', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  expect(await page.textContent('#out')).toBe('before');
  await page.click('#load');
  await page.waitForSelector('#swapped');
  expect(await page.innerHTML('#out')).toBe('<b id="swapped">swapped in</b>');
  await page.close();
});

it('an Alpine counter counts clicks', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelector('#count')?.textContent === '0');
  await page.click('#inc');
  await page.click('#inc');
  await page.waitForFunction(() => document.querySelector('#count')?.textContent === '2');
  expect(await page.textContent('#count')).toBe('2');
  await page.close();
});
