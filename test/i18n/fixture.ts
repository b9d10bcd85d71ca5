/** A project with three translation domains: the Additive `blog`, the app, and the framework. */
import { join } from 'node:path';
import { Additive, Fluid } from '@fw/kernel';
import { makeProject, memoryLogger, type ProjectSpec } from '../kernel/helpers.js';

const PL_PLURAL = 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);';

/** A PO file from a header and entries. */
export function po(pluralForms: string, body: string): string {
  return `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: ${pluralForms}\\n"\n\n${body}`;
}

/** The app's catalogs (`fluid/locales/`). */
export const APP_FILES: Record<string, string> = {
  'fluid/locales/de.po': po(
    'nplurals=2; plural=(n != 1);',
    `msgid "Hello, %(name)s!"
msgstr "Hallo, %(name)s!"

msgid "Save"
msgstr "Speichern"

msgid "Open"
msgstr "Öffnen"

msgctxt "door"
msgid "Open"
msgstr "Aufmachen"

msgid "%(num)d file"
msgid_plural "%(num)d files"
msgstr[0] "%(num)d Datei"
msgstr[1] "%(num)d Dateien"

msgctxt "inbox"
msgid "%(num)d message"
msgid_plural "%(num)d messages"
msgstr[0] "%(num)d Nachricht"
msgstr[1] "%(num)d Nachrichten"

msgid "Untranslated"
msgstr ""
`,
  ),
  'fluid/locales/pl.po': po(
    PL_PLURAL,
    `msgid "Hello, %(name)s!"
msgstr "Cześć, %(name)s!"

msgid "%(num)d file"
msgid_plural "%(num)d files"
msgstr[0] "%(num)d plik"
msgstr[1] "%(num)d pliki"
msgstr[2] "%(num)d plików"

msgctxt "door"
msgid "Open"
msgstr "Otwórz drzwi"

msgctxt "inbox"
msgid "%(num)d message"
msgid_plural "%(num)d messages"
msgstr[0] "%(num)d wiadomość"
msgstr[1] "%(num)d wiadomości"
msgstr[2] "%(num)d wiadomości"
`,
  ),
};

/** The Additive's catalogs (`additives/blog/locales/`): "Save" translated to itself in German. */
export const BLOG_FILES: Record<string, string> = {
  'additives/blog/locales/de.po': po(
    'nplurals=2; plural=(n != 1);',
    `msgid "Save"
msgstr "Save"

msgid "Post"
msgstr "Beitrag"

msgid "%(num)d comment"
msgid_plural "%(num)d comments"
msgstr[0] "%(num)d Kommentar"
msgstr[1] "%(num)d Kommentare"

msgctxt "blog"
msgid "Draft"
msgstr "Entwurf"

msgctxt "blog"
msgid "%(num)d draft"
msgid_plural "%(num)d drafts"
msgstr[0] "%(num)d Entwurf"
msgstr[1] "%(num)d Entwürfe"
`,
  ),
};

/** Config turning translations on with `en`, `de`, `pl` and `ru`. */
export const I18N_CONFIG = { EXT_I18N: true, I18N_DEFAULT_LOCALE: 'en', I18N_SUPPORTED_LOCALES: ['en', 'de', 'pl', 'ru'] };

/** A Fluid over the three-domain project (the Additive registered). */
export function makeI18nFluid(spec: ProjectSpec = {}): Fluid {
  const root = makeProject({ ...spec, config: { ...I18N_CONFIG, ...spec.config }, files: { ...APP_FILES, ...BLOG_FILES, ...spec.files } });
  const fluid = new Fluid({ root, env: {}, logger: memoryLogger() });
  fluid.additive(new Additive('blog', { root: join(root, 'additives', 'blog') }));
  return fluid;
}
