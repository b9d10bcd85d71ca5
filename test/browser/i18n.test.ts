/**
 * The browser i18n client `fw.ext.i18n` in headless Chromium: cache-backed `_`, `_n`, `_p`, `_np`
 * and the live ones (over /ws/i18n) with the server's argument order, in the negotiated locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Fluid } from '@fw/kernel';
import type { Fw } from '../../runtime-kernel/static/fw/fw.d.ts';
import type { FwI18n } from '../../runtime-kernel/static/fw/i18n.d.ts';
import { cleanupProjects, start } from '../kernel/helpers.js';
import { launchBrowser } from '../support/browser.js';
import { makeI18nFluid } from '../i18n/fixture.js';

let fluid: Fluid;
let browser: BrowserContext;
let page: Page;

type Win = { fw: Fw };
const PAGE = '<!doctype html><html><head><script src="/fluid/static/fw/fw.js"></script><script src="/fluid/static/fw/i18n.js"></script></head><body>i18n</body></html>';

beforeAll(async () => {
  fluid = makeI18nFluid();
  fluid.app.get('home', '/', () => PAGE);
  const base = await start(fluid);
  browser = await launchBrowser();
  await browser.addCookies([{ name: 'lang', value: 'pl', url: base }]);
  page = await browser.newPage();
  await page.goto(base + '/');
  await page.evaluate(() => ((globalThis as unknown as Win).fw.ext['i18n'] as FwI18n).ready);
});

afterAll(async () => {
  await browser?.close();
  await fluid?.close();
  cleanupProjects();
});

describe('fw.ext.i18n in Chromium (lang cookie: pl)', () => {
  it('live _p(context, msgid) and _np(context, singular, plural, n) translate in the server order', async () => {
    const live = await page.evaluate(async () => {
      const t = (globalThis as unknown as Win).fw.ext['i18n'] as FwI18n;
      return [
        await t.live._p('door', 'Open'),
        await t.live._np('inbox', '%(num)d message', '%(num)d messages', 1),
        await t.live._np('inbox', '%(num)d message', '%(num)d messages', 5),
        await t.live._('Hello, %(name)s!', { name: 'Ada' }),
        await t.live._n('%(num)d file', '%(num)d files', 22),
        await t.live._p('window', 'Open'),
      ];
    });
    expect(live).toEqual(['Otwórz drzwi', '1 wiadomość', '5 wiadomości', 'Cześć, Ada!', '22 pliki', 'Open']);
  });

  it('the cache-backed forms answer the same, synchronously, with Polish plural forms', async () => {
    const cached = await page.evaluate(() => {
      const t = (globalThis as unknown as Win).fw.ext['i18n'] as FwI18n;
      return [
        t.locale,
        t._p('door', 'Open'),
        t._np('inbox', '%(num)d message', '%(num)d messages', 5),
        t._('Hello, %(name)s!', { name: 'Ada' }),
        [1, 2, 5, 22, 112].map((n) => t._n('%(num)d file', '%(num)d files', n)),
        t._('Post'),
        t._('Missing'),
        t._n('%(n)d cat', '%(num)d cats', 3),
      ];
    });
    expect(cached).toEqual([
      'pl',
      'Otwórz drzwi',
      '5 wiadomości',
      'Cześć, Ada!',
      ['1 plik', '2 pliki', '5 plików', '22 pliki', '112 plików'],
      'Post', // the blog Additive has no Polish catalog
      'Missing',
      '3 cats',
    ]);
  });

  it('a bad live call rejects with the server error', async () => {
    const error = await page.evaluate(async () => {
      const t = (globalThis as unknown as Win).fw.ext['i18n'] as unknown as { live: { _np(...a: unknown[]): Promise<string> } };
      return t.live._np('inbox', 'a', 'b', 'many').then(
        () => 'resolved',
        (err: Error) => err.message,
      );
    });
    expect(error).toBe('translate: npgettext args[3] must be a number, got "many".');
  });
});

describe('fw.ext.i18n with a locale configured gettext-style (pt_BR)', () => {
  it('loads its pt_BR.po and picks plural forms (Intl threw on pt_BR; two forms under three CLDR categories take the last, as the server)', async () => {
    const ptBr = makeI18nFluid({
      config: { I18N_SUPPORTED_LOCALES: ['en', 'pt_BR'] },
      files: { 'fluid/locales/pt_BR.po': 'msgid "%(num)d file"\nmsgid_plural "%(num)d files"\nmsgstr[0] "%(num)d arquivo"\nmsgstr[1] "%(num)d arquivos"\n' },
    });
    ptBr.app.get('home', '/', () => PAGE);
    const base = await start(ptBr);
    const context = await launchBrowser();
    try {
      await context.addCookies([{ name: 'lang', value: 'pt_BR', url: base }]);
      const tab = await context.newPage();
      await tab.goto(base + '/');
      const answers = await tab.evaluate(async () => {
        const t = (globalThis as unknown as Win).fw.ext['i18n'] as FwI18n;
        await t.ready;
        return [t.locale, t._n('%(num)d file', '%(num)d files', 1), t._n('%(num)d file', '%(num)d files', 3)];
      });
      expect(answers).toEqual(['pt-BR', '1 arquivo', '3 arquivos']); // config spells it as a BCP 47 tag
    } finally {
      await context.close();
      await ptBr.close();
    }
  });
});
