/** Locale negotiation through real HTTP requests: ?lang=, the lang cookie, Accept-Language. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluid } from '@fw/kernel';
import { LocaleMatcher, parseAcceptLanguage } from '@fw/kernel/i18n';
import { cleanupProjects, start } from '../kernel/helpers.js';
import { makeI18nFluid } from './fixture.js';

let fluid: Fluid;
let base: string;

beforeAll(async () => {
  fluid = makeI18nFluid({ config: { I18N_SUPPORTED_LOCALES: ['en', 'de', 'pl', 'pt-BR'] } });
  fluid.app.get('locale', '/locale', (ctx) => ({ locale: ctx.locale, hello: ctx.i18n.gettext('Hello, %(name)s!', { name: 'Ada' }) }));
  base = await start(fluid);
});
afterAll(async () => {
  await fluid.close();
  cleanupProjects();
});

async function locale(query: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${base}/locale${query}`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { locale: string }).locale;
}

const HUGE = Array.from({ length: 800 }, (_, i) => `x${i};q=0.${(i % 9) + 1}`).join(',') + ',pl';

const TABLE: [string, string, Record<string, string>, string][] = [
  ['nothing → default', '', {}, 'en'],
  ['?lang=de', '?lang=de', {}, 'de'],
  ['?lang=de-AT → de (region falls back to language)', '?lang=de-AT', {}, 'de'],
  ['?lang=pt → pt-BR (language to its supported region)', '?lang=pt', {}, 'pt-BR'],
  ['?lang=DE_at (case and underscore)', '?lang=DE_at', {}, 'de'],
  ['unsupported ?lang=fr → next source (cookie)', '?lang=fr', { cookie: 'lang=pl' }, 'pl'],
  ['unsupported ?lang=fr, nothing else → default', '?lang=fr', {}, 'en'],
  ['garbage ?lang= → default', '?lang=%3Cscript%3E', {}, 'en'],
  ['?lang= beats the cookie', '?lang=de', { cookie: 'lang=pl' }, 'de'],
  ['cookie lang=pl', '', { cookie: 'lang=pl' }, 'pl'],
  ['unsupported cookie → Accept-Language', '', { cookie: 'lang=fr', 'accept-language': 'de' }, 'de'],
  ['cookie beats Accept-Language', '', { cookie: 'lang=pl', 'accept-language': 'de' }, 'pl'],
  ['Accept-Language by q-value', '', { 'accept-language': 'fr;q=1, de;q=0.5, pl;q=0.8' }, 'pl'],
  ['Accept-Language de-AT → de', '', { 'accept-language': 'de-AT,en;q=0.1' }, 'de'],
  ['Accept-Language q=0 is refused', '', { 'accept-language': 'de;q=0, pl;q=0.1' }, 'pl'],
  ['Accept-Language * → default', '', { 'accept-language': '*' }, 'en'],
  ['malicious Accept-Language (garbage) → default', '', { 'accept-language': ';;;,,,q=,=;de;q=abc,\u00ff\u00fe;q=1e999,en-;q=-1,de;q=NaN' }, 'en'],
  ['huge Accept-Language: entries past the cap ignored, never throws', '', { 'accept-language': HUGE }, 'en'],
  ['huge tag → ignored', '', { 'accept-language': 'a'.repeat(7000) + ',de' }, 'en'],
];

describe('negotiation table (HTTP)', () => {
  for (const [name, query, headers, expected] of TABLE) {
    it(name, async () => {
      expect(await locale(query, headers)).toBe(expected);
    });
  }

  it('ctx.i18n translates to the negotiated locale', async () => {
    const res = await fetch(`${base}/locale?lang=pl`);
    expect(await res.json()).toEqual({ locale: 'pl', hello: 'Cześć, Ada!' });
  });

  it('50 requests with distinct unsupported ?lang= values all map onto the default locale\'s translations', async () => {
    for (let i = 0; i < 50; i++) expect(await locale(`?lang=x${i}-YY`)).toBe('en');
    // one MergedTranslations per supported locale: unknown locales map onto the default's
    expect(fluid.i18n.translations('x1-YY')).toBe(fluid.i18n.translations('en'));
  });
});

describe('parseAcceptLanguage and LocaleMatcher', () => {
  it('orders by q (stable), drops *, q=0 and malformed entries', () => {
    expect(parseAcceptLanguage('da, en-GB;q=0.8, en;q=0.7, *;q=0.1, x y;q=1, fr;q=0')).toEqual(['da', 'en-GB', 'en']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('reads at most 32 entries and 1024 characters', () => {
    expect(parseAcceptLanguage(Array.from({ length: 100 }, () => 'de').join(','))).toHaveLength(32);
    expect(parseAcceptLanguage('de,'.repeat(1000)).length).toBeLessThanOrEqual(32);
    expect(parseAcceptLanguage(' '.repeat(1030) + 'de')).toEqual([]);
  });

  it('never throws on any input', () => {
    const m = new LocaleMatcher(['en', 'de'], 'en');
    for (const v of ['', '-', '__', 'de-', '\u{1F600}', 'de-AT-x-private-extra-long', 'q=1', ';'.repeat(99)]) {
      expect(() => m.negotiate({ query: v, cookie: v, acceptLanguage: v })).not.toThrow();
    }
  });
});
