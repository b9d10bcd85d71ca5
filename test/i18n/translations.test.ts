/** MergedTranslations across three domains: every method on hit and miss, plurals, context. */
import { afterAll, describe, expect, it } from 'vitest';
import { Fluid } from '@fw/kernel';
import { MergedTranslations } from '@fw/kernel/i18n';
import { cleanupProjects, makeProject, memoryLogger } from '../kernel/helpers.js';
import { APP_FILES, makeI18nFluid } from './fixture.js';

afterAll(cleanupProjects);

describe('MergedTranslations: escalation Additive → app → framework', () => {
  const fluid = makeI18nFluid();
  const de = fluid.i18n.translations('de');

  it('answers each domain hit: Additive, app, framework', () => {
    expect(de.gettext('Post')).toBe('Beitrag'); // Additive only
    expect(de.gettext('Hello, %(name)s!', { name: 'Ada' })).toBe('Hallo, Ada!'); // app only
    expect(de.gettext('Not Found')).toBe('Nicht gefunden'); // framework only
    expect(de.ngettext('%(num)d comment', '%(num)d comments', 2)).toBe('2 Kommentare');
    expect(de.ngettext('Try again in %(num)d second.', 'Try again in %(num)d seconds.', 1)).toBe('Versuchen Sie es in 1 Sekunde erneut.');
  });

  it('a translation equal to its source is a hit: the Additive\'s "Save" → "Save" wins over the app\'s "Speichern"', () => {
    expect(de.findtext('Save')).toBe('Save');
    expect(de.gettext('Save')).toBe('Save');
    expect(fluid.i18n.translations('de').pgettext('door', 'Open')).toBe('Aufmachen');
  });

  it('the gettext family: hit and miss (miss answers the source, interpolated)', () => {
    expect(de.gettext('Post')).toBe('Beitrag');
    expect(de.gettext('Missing %(x)s', { x: 'y' })).toBe('Missing y');
    expect(de.ngettext('%(num)d file', '%(num)d files', 3)).toBe('3 Dateien');
    expect(de.ngettext('%(num)d cat', '%(num)d cats', 1)).toBe('1 cat');
    expect(de.ngettext('%(n)d cat', '%(num)d cats', 4)).toBe('4 cats');
    expect(de.pgettext('door', 'Open')).toBe('Aufmachen');
    expect(de.pgettext('window', 'Open')).toBe('Open');
    expect(de.npgettext('inbox', '%(num)d message', '%(num)d messages', 1)).toBe('1 Nachricht');
    expect(de.npgettext('outbox', '%(num)d message', '%(num)d messages', 5)).toBe('5 messages');
    expect(de.npgettext('blog', '%(num)d draft', '%(num)d drafts', 2)).toBe('2 Entwürfe');
  });

  it('the findtext family: hit and miss (miss answers null)', () => {
    expect(de.findtext('Post')).toBe('Beitrag');
    expect(de.findtext('Missing')).toBeNull();
    expect(de.findtext('Untranslated')).toBeNull(); // an empty msgstr is a miss
    expect(de.nfindtext('%(num)d file', '%(num)d files', 1)).toBe('1 Datei');
    expect(de.nfindtext('%(num)d cat', '%(num)d cats', 1)).toBeNull();
    expect(de.pfindtext('blog', 'Draft')).toBe('Entwurf');
    expect(de.pfindtext('door', 'Draft')).toBeNull();
    expect(de.npfindtext('inbox', '%(num)d message', '%(num)d messages', 7)).toBe('7 Nachrichten');
    expect(de.npfindtext('inbox', '%(num)d file', '%(num)d files', 7)).toBeNull();
  });

  it('the async twins answer like their synchronous forms', async () => {
    expect(await de.agettext('Post')).toBe('Beitrag');
    expect(await de.agettext('Nope')).toBe('Nope');
    expect(await de.angettext('%(num)d file', '%(num)d files', 2)).toBe('2 Dateien');
    expect(await de.angettext('%(num)d cat', '%(num)d cats', 2)).toBe('2 cats');
    expect(await de.apgettext('door', 'Open')).toBe('Aufmachen');
    expect(await de.apgettext('x', 'Open')).toBe('Open');
    expect(await de.anpgettext('inbox', '%(num)d message', '%(num)d messages', 2)).toBe('2 Nachrichten');
    expect(await de.anpgettext('x', '%(num)d message', '%(num)d messages', 1)).toBe('1 message');
    expect(await de.afindtext('Save')).toBe('Save');
    expect(await de.afindtext('Nope')).toBeNull();
    expect(await de.anfindtext('%(num)d comment', '%(num)d comments', 1)).toBe('1 Kommentar');
    expect(await de.anfindtext('a', 'b', 1)).toBeNull();
    expect(await de.apfindtext('blog', 'Draft')).toBe('Entwurf');
    expect(await de.apfindtext('blog', 'Nope')).toBeNull();
    expect(await de.anpfindtext('blog', '%(num)d draft', '%(num)d drafts', 1)).toBe('1 Entwurf');
    expect(await de.anpfindtext('blog', 'a', 'b', 1)).toBeNull();
  });

  it('escalation goes through findtext: a subclass overriding findtext changes gettext', () => {
    class Shouting extends MergedTranslations {
      override findtext(msgid: string): string | null {
        return msgid.toUpperCase();
      }
    }
    expect(new Shouting('en', []).gettext('hi')).toBe('HI');
  });
});

describe('plural forms with more than two forms', () => {
  const fluid = makeI18nFluid();

  it('Polish: 1 plik, 2–4 pliki, 5–21 plików, 22 pliki, 112 plików', () => {
    const pl = fluid.i18n.translations('pl');
    const files = (n: number) => pl.ngettext('%(num)d file', '%(num)d files', n);
    expect([1, 2, 4, 5, 12, 21, 22, 25, 112, 0].map(files)).toEqual([
      '1 plik', '2 pliki', '4 pliki', '5 plików', '12 plików', '21 plików', '22 pliki', '25 plików', '112 plików', '0 plików',
    ]);
  });

  it('Russian (the framework catalog): 1, 21 секунду; 2, 3 секунды; 5, 11 секунд', () => {
    const ru = fluid.i18n.translations('ru');
    const s = (n: number) => ru.ngettext('Try again in %(num)d second.', 'Try again in %(num)d seconds.', n);
    expect(s(1)).toBe('Повторите попытку через 1 секунду.');
    expect(s(21)).toBe('Повторите попытку через 21 секунду.');
    expect(s(3)).toBe('Повторите попытку через 3 секунды.');
    expect(s(5)).toBe('Повторите попытку через 5 секунд.');
    expect(s(11)).toBe('Повторите попытку через 11 секунд.');
  });
});

describe('context (msgctxt)', () => {
  it('the same msgid translates differently with and without a context', () => {
    const fluid = makeI18nFluid();
    const de = fluid.i18n.translations('de');
    expect(de.gettext('Open')).toBe('Öffnen');
    expect(de.pgettext('door', 'Open')).toBe('Aufmachen');
    const pl = fluid.i18n.translations('pl');
    expect(pl.gettext('Open')).toBe('Open'); // only the context form is in the Polish catalog
    expect(pl.pgettext('door', 'Open')).toBe('Otwórz drzwi');
    expect(pl.npgettext('inbox', '%(num)d message', '%(num)d messages', 5)).toBe('5 wiadomości');
  });
});

describe('locales and catalogs', () => {
  it('keeps one MergedTranslations per supported locale; an unsupported one falls back', () => {
    const fluid = makeI18nFluid({ config: { I18N_SUPPORTED_LOCALES: ['en', 'de', 'de-AT', 'pl'] } });
    const i18n = fluid.i18n;
    expect(i18n.translations('de')).toBe(i18n.translations('de'));
    expect(i18n.translations('de-CH')).toBe(i18n.translations('de')); // de-CH → de
    expect(i18n.translations('xx')).toBe(i18n.translations('en'));
    expect(i18n.translations('de-AT').gettext('Post')).toBe('Beitrag'); // de-AT catalogs fall back to de.po
    expect(i18n.translations('de-AT').locale).toBe('de-AT');
  });

  it('with EXT_I18N off every lookup answers the source, interpolated, with n and num', () => {
    const fluid = makeI18nFluid({ config: { EXT_I18N: false } });
    const t = fluid.i18n.translations('de');
    expect(t.gettext('Post')).toBe('Post');
    expect(t.findtext('Post')).toBeNull();
    expect(t.ngettext('%(n)d file', '%(num)d files', 3)).toBe('3 files');
    expect(t.ngettext('%(n)d file', '%(num)d files', 1)).toBe('1 file');
  });

  it('a malformed catalog fails with the file named', () => {
    const fluid = makeI18nFluid({ files: { 'fluid/locales/pl.po': 'garbage here\n' } });
    expect(() => fluid.i18n.translations('pl')).toThrow(/fluid\/locales\/pl\.po: not a valid PO catalog/);
    const bad = makeI18nFluid({ files: { 'fluid/locales/pl.po': 'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=process.exit(1);\\n"\n' } });
    expect(() => bad.i18n.translations('pl')).toThrow(/pl\.po: Plural-Forms: invalid Plural-Forms header/);
  });
});

describe('config names: EXT_BABEL / BABEL_* are aliases of EXT_I18N / I18N_*', () => {
  it('reads the reference names from fw.json and the environment', () => {
    const root = makeProject({
      config: { EXT_BABEL: true, BABEL_DEFAULT_LOCALE: 'de', BABEL_SUPPORTED_LOCALES: ['de', 'pl'] },
      files: APP_FILES,
    });
    const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
    expect(fluid.config.EXT_I18N).toBe(true);
    expect(fluid.i18n.enabled).toBe(true);
    expect(fluid.i18n.defaultLocale).toBe('de');
    expect(fluid.i18n.supportedLocales).toEqual(['de', 'pl']);
    expect(fluid.i18n.translations('xx').gettext('Save')).toBe('Speichern'); // unsupported → default de
    const fromEnv = new Fluid({ root: makeProject({ files: APP_FILES }), env: { EXT_BABEL: '1', BABEL_SUPPORTED_LOCALES: '["en","pl"]' }, logger: memoryLogger() });
    expect(fromEnv.i18n.enabled).toBe(true);
    expect(fromEnv.i18n.translations('pl').gettext('Hello, %(name)s!', { name: 'Ada' })).toBe('Cześć, Ada!');
  });
});
